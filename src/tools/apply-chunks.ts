import type { PatchChunk } from "./parse-patch.ts";

export type ChunkResult = { ok: true; content: string } | { ok: false; chunk: number; message: string };

/**
 * Applies the chunks of an Update File to a file's content, as codex does: each chunk is searched
 * after the previous one (after its `@@` context line when it has one), first exactly, then ignoring
 * trailing, then surrounding whitespace. Pure; says which chunk (1-based) did not match.
 */
export function applyChunks(content: string, chunks: readonly PatchChunk[]): ChunkResult {
  // CRLF files keep their line endings; the patch's lines carry none.
  const eol = content.includes("\r\n") ? "\r\n" : "\n";
  const lines = content.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const replacements: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  for (const [n, chunk] of chunks.entries()) {
    if (chunk.context !== undefined) {
      const at = seek(lines, [chunk.context], cursor, false);
      if (at === undefined) return { ok: false, chunk: n + 1, message: `the context line ${JSON.stringify(chunk.context)} after @@ was not found` };
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      replacements.push({ at: lines.length, remove: 0, insert: chunk.newLines });
      continue;
    }
    let old = chunk.oldLines;
    let insert = chunk.newLines;
    let at = seek(lines, old, cursor, chunk.endOfFile);
    // A trailing empty line in the hunk often stands for the file's final newline.
    if (at === undefined && old[old.length - 1] === "") {
      old = old.slice(0, -1);
      if (insert[insert.length - 1] === "") insert = insert.slice(0, -1);
      at = seek(lines, old, cursor, chunk.endOfFile);
    }
    if (at === undefined) {
      return { ok: false, chunk: n + 1, message: `these lines were not found${cursor > 0 ? ` after line ${cursor}` : ""}:\n${chunk.oldLines.join("\n")}` };
    }
    replacements.push({ at, remove: old.length, insert });
    cursor = at + old.length;
  }
  replacements.sort((a, b) => b.at - a.at);
  for (const r of replacements) lines.splice(r.at, r.remove, ...r.insert);
  return { ok: true, content: lines.length ? lines.join(eol) + eol : "" };
}

const comparisons: ((a: string, b: string) => boolean)[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

function seek(lines: string[], pattern: string[], from: number, atEnd: boolean): number | undefined {
  if (pattern.length > lines.length) return undefined;
  const start = atEnd ? lines.length - pattern.length : from;
  for (const same of comparisons) {
    for (let i = start; i + pattern.length <= lines.length; i++) {
      if (pattern.every((p, k) => same(lines[i + k]!, p))) return i;
    }
  }
  return undefined;
}
