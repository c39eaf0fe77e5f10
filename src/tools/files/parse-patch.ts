/** One `@@` section of an Update File: the lines to find (context and `-`) and what replaces them. */
export type PatchChunk = {
  /** Text after `@@`: a line to find first, so the chunk matches after it. */
  context?: string;
  oldLines: string[];
  newLines: string[];
  /** `*** End of File`: the lines must be the last of the file. */
  endOfFile: boolean;
};

export type PatchOp =
  | { type: "add"; path: string; content: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo?: string; chunks: PatchChunk[] };

export class PatchParseError extends Error {
  override name = "PatchParseError";
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`Line ${line} of the patch: ${message}`);
  }
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/;
const END_OF_FILE = "*** End of File";

/**
 * Every path a patch names (including Move to targets), found by a lenient scan so it works even on
 * a patch that fails to parse — the guard must see all of them.
 */
export function patchPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const path = HEADER.exec(line.trim())?.[2]?.trim();
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** Parses the codex `apply_patch` envelope. Throws PatchParseError naming the line that is wrong. */
export function parsePatch(text: string): PatchOp[] {
  const lines = unwrapHeredoc(text.trim().split(/\r?\n/));
  if (lines[0]?.trim() !== BEGIN) throw new PatchParseError(`the patch must start with "${BEGIN}".`, 1);
  if (lines.length < 2 || lines[lines.length - 1]!.trim() !== END) throw new PatchParseError(`the patch must end with "${END}".`, lines.length);
  const ops: PatchOp[] = [];
  let i = 1;
  const last = lines.length - 1;
  while (i < last) {
    const header = HEADER.exec(lines[i]!.trim());
    if (!header || header[1] === "Move to") {
      throw new PatchParseError(`expected "*** Add File: <path>", "*** Update File: <path>" or "*** Delete File: <path>", found ${JSON.stringify(lines[i])}.`, i + 1);
    }
    const path = header[2]!.trim();
    i++;
    if (header[1] === "Delete File") ops.push({ type: "delete", path });
    else if (header[1] === "Add File") {
      const body: string[] = [];
      while (i < last && lines[i]!.startsWith("+")) body.push(lines[i++]!.slice(1));
      ops.push({ type: "add", path, content: body.length ? body.join("\n") + "\n" : "" });
    } else {
      let moveTo: string | undefined;
      const move = HEADER.exec(lines[i]?.trim() ?? "");
      if (i < last && move?.[1] === "Move to") {
        moveTo = move[2]!.trim();
        i++;
      }
      const start = i;
      const chunks: PatchChunk[] = [];
      while (i < last && !HEADER.exec(lines[i]!.trim())) i = parseChunk(lines, i, last, chunks);
      if (chunks.length === 0 && !moveTo) throw new PatchParseError(`the Update File section for ${path} has no changes.`, start + 1);
      ops.push({ type: "update", path, chunks, ...(moveTo ? { moveTo } : {}) });
    }
  }
  return ops;
}

/** Parses one chunk starting at `i` (an `@@` line, or change lines for a first chunk without one); returns the next index. */
function parseChunk(lines: string[], i: number, last: number, chunks: PatchChunk[]): number {
  const chunk: PatchChunk = { oldLines: [], newLines: [], endOfFile: false };
  const first = lines[i]!;
  if (first.trim() === "@@" || first.startsWith("@@ ")) {
    const context = first.trim().slice(2).trim();
    if (context) chunk.context = context;
    i++;
  } else if (chunks.length > 0) {
    throw new PatchParseError(`expected "@@" to start the next change, found ${JSON.stringify(first)}.`, i + 1);
  }
  let changeLines = 0;
  for (; i < last; i++) {
    const line = lines[i]!;
    if (line.trim() === END_OF_FILE) {
      chunk.endOfFile = true;
      i++;
      break;
    }
    const mark = line[0];
    if (line === "") push(chunk, "", true, true); // models often drop the space of an empty context line
    else if (mark === " ") push(chunk, line.slice(1), true, true);
    else if (mark === "-") push(chunk, line.slice(1), true, false);
    else if (mark === "+") push(chunk, line.slice(1), false, true);
    else if (changeLines === 0) throw new PatchParseError(`expected a line starting with " ", "-" or "+", found ${JSON.stringify(line)}.`, i + 1);
    else break;
    changeLines++;
  }
  if (changeLines === 0 && !chunk.endOfFile) throw new PatchParseError(`the "@@" section has no lines.`, i + 1);
  chunks.push(chunk);
  return i;
}

function push(chunk: PatchChunk, text: string, old: boolean, neu: boolean) {
  if (old) chunk.oldLines.push(text);
  if (neu) chunk.newLines.push(text);
}

// Models sometimes send the shell form `apply_patch <<'EOF' … EOF`; accept it.
function unwrapHeredoc(lines: string[]): string[] {
  const marker = /^(?:apply_patch\s+)?<<-?\s*['"]?(\w+)['"]?\s*$/.exec(lines[0]?.trim() ?? "")?.[1];
  if (marker && lines.length >= 2 && lines[lines.length - 1]!.trim() === marker) return lines.slice(1, -1);
  return lines;
}
