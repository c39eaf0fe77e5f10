import { diffArrays } from "diff";
import type { PatchChunk } from "./parse-patch.ts";

export type ChunkResult = { ok: true; content: string } | ChunkFailure;
type ChunkFailure = { ok: false; chunk: number; message: string };

/**
 * A line of the file and the ending it has there: `\r\n`, `\n`, or none (a last line without one); with
 * where it came from: `start`, its offset in the content, for a line of the file's own; `window`, for a line the
 * patch added, the stretch of the content it stands in place of: the lines its chunk removed right
 * before it, else all its chunk matched (patch-content.ts reads both).
 */
export type PatchedLine = { text: string; end: string; start?: number; window?: [number, number] };
type Line = PatchedLine;

/**
 * Applies the chunks of an Update File to a file's content, as codex does: each chunk is searched
 * after the previous one (after its `@@` context line when it has one), first exactly, then ignoring
 * trailing, then surrounding whitespace. Pure; says which chunk (1-based) did not match. Lines the
 * chunks do not replace keep their bytes, endings included.
 */
export function applyChunks(content: string, chunks: readonly PatchChunk[]): ChunkResult {
  const result = patchLines(content, chunks);
  return result.ok ? { ok: true, content: result.lines.map((line) => line.text + line.end).join("") } : result;
}

/** What applyChunks makes, as lines that say where each came from. */
export function patchLines(content: string, chunks: readonly PatchChunk[]): { ok: true; lines: PatchedLine[] } | ChunkFailure {
  const lines = splitLines(content);
  const replacements: { at: number; remove: number; old: string[]; insert: string[] }[] = [];
  let cursor = 0;
  for (const [n, chunk] of chunks.entries()) {
    if (chunk.context !== undefined) {
      const at = seek(lines, [chunk.context], cursor, false);
      if (at === undefined) return { ok: false, chunk: n + 1, message: `the context line ${JSON.stringify(chunk.context)} after @@ was not found` };
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      replacements.push({ at: lines.length, remove: 0, old: [], insert: chunk.newLines });
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
    replacements.push({ at, remove: old.length, old, insert });
    cursor = at + old.length;
  }
  replacements.sort((a, b) => b.at - a.at);
  for (const r of replacements) replace(lines, r.at, r.remove, r.old, r.insert);
  return { ok: true, lines };
}

function splitLines(content: string): Line[] {
  const lines: Line[] = [];
  for (let start = 0; start < content.length; ) {
    const newline = content.indexOf("\n", start);
    const stop = newline === -1 ? content.length : newline + 1;
    const end = newline === -1 ? "" : content[newline - 1] === "\r" && newline > start ? "\r\n" : "\n";
    lines.push({ text: content.slice(start, stop - end.length), end, start });
    start = stop;
  }
  return lines;
}

/**
 * Replaces `remove` lines at `at` (which matched `old`) with `insert`. Lines the chunk keeps (context)
 * stay the file's own, bytes and ending; an added line ends as the first line it replaces does, or else
 * the line above it (else any line of the file, else `\n`). A file without a final newline keeps lacking one.
 */
function replace(lines: Line[], at: number, remove: number, old: string[], insert: string[]): void {
  const endNear = (k: number) => [lines[k], lines[k - 1], ...lines].find((line) => line !== undefined && line.end !== "")?.end ?? "\n";
  const unterminated = at + remove === lines.length && lines.at(-1)?.end === "";
  // The stretch of content lines [from, to) cover, for where an added line came from (see PatchedLine).
  const span = (from: number, to: number): [number, number] | undefined => {
    const first = lines[from];
    const last = lines[to - 1];
    return to > from && first?.start !== undefined && last?.start !== undefined ? [first.start, last.start + last.text.length + last.end.length] : undefined;
  };
  const matched = span(at, at + remove);
  const out: Line[] = [];
  let k = at;
  // The line whose ending an addition takes: the first it replaces, or the one above it.
  let place = at - 1;
  // The lines removed since the last kept one: what the lines added next stand in place of.
  let removedFrom = at;
  for (const part of diffArrays(old, insert)) {
    if (part.added) {
      const window = span(removedFrom, k) ?? matched;
      out.push(...part.value.map((text) => ({ text, end: endNear(place), ...(window ? { window } : {}) })));
    } else if (part.removed) {
      place = k;
      k += part.count;
    } else {
      out.push(...lines.slice(k, k + part.count));
      k += part.count;
      place = k - 1;
      removedFrom = k;
    }
  }
  if (unterminated && out.length > 0) {
    // The unterminated line may no longer be last; whatever is last now ends the file the same way.
    for (const [i, line] of out.entries()) if (line.end === "") out[i] = { ...line, end: endNear(at) };
    out[out.length - 1] = { ...out[out.length - 1]!, end: "" };
    if (remove === 0) lines[at - 1] = { ...lines[at - 1]!, end: endNear(at - 1) };
  }
  lines.splice(at, remove, ...out);
}

const comparisons: ((a: string, b: string) => boolean)[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

function seek(lines: Line[], pattern: string[], from: number, atEnd: boolean): number | undefined {
  if (pattern.length > lines.length) return undefined;
  const start = atEnd ? lines.length - pattern.length : from;
  for (const same of comparisons) {
    for (let i = start; i + pattern.length <= lines.length; i++) {
      if (pattern.every((p, k) => same(lines[i + k]!.text, p))) return i;
    }
  }
  return undefined;
}
