import { markerShapes } from "../../text/redaction-marker.ts";
import type { HeldMarker } from "./redacted-view.ts";

/**
 * A stretch of the content a write tool is about to put in a file: the file's own text, kept (as its
 * bytes, and as the model was shown it), or text the model wrote in place of a stretch of the file (with
 * the markers that stretch showed: `replaced`).
 */
export type Piece = { kept: string; shown: string } | { written: string; replaced: readonly HeldMarker[] };

export type Restored = { text: string } | { refused: string };

const AMBIGUOUS = Symbol("ambiguous");

/**
 * The content's bytes: each kept stretch as the file has it, and in each written one every marker put
 * back to the bytes it stood for in this file — the model saw markers, not values, and writing one
 * back would put the placeholder where the person's secret was. Pure.
 *
 * A written marker is looked for first among those of the stretch it replaces, then in the whole file
 * (`held`). Where every value behind it there is the same, it is that value. Where several values share
 * its text (two values of `.env` both shown as `[redacted .env]`) its line decides: a line shown with
 * the marker at the same place, else one with the same text before or after it on the line, when those
 * agree on one value. Otherwise it is refused, as is a marker this file never showed (a value it does
 * not hold, or a new file), with one line saying so: nothing of it may reach the file.
 */
export function restoreMarkers(pieces: readonly Piece[], held: readonly HeldMarker[], shown: string): Restored {
  const known = [...new Set(held.map((h) => h.marker))];
  // The content as the model means it, for the line around each written marker.
  const view = pieces.map((p) => ("kept" in p ? p.shown : p.written)).join("");
  let text = "";
  let offset = 0;
  for (const piece of pieces) {
    if ("kept" in piece) {
      text += piece.kept;
      offset += piece.shown.length;
      continue;
    }
    let done = 0;
    for (const { at, marker } of markersIn(piece.written, known)) {
      const where = offset + at;
      const value = resolve(marker, lineAround(view, where, marker.length), [piece.replaced, held]);
      const line = () => view.slice(0, where).split("\n").length;
      if (value === undefined) {
        return { refused: `The new text holds \`${marker}\` (line ${line()}), a placeholder for a secret value ${shown} does not hold; nothing was written. Write it without the placeholder (edit around the secret: use edit_file on the lines that do not hold it).` };
      }
      if (value === AMBIGUOUS) {
        return { refused: `The new text holds \`${marker}\` (line ${line()}), a placeholder for one of several secret values in ${shown}, and its line does not tell which; nothing was written. Keep the lines holding it as they were read and change the others (use edit_file on the lines that do not hold it).` };
      }
      text += piece.written.slice(done, at) + value;
      done = at + marker.length;
    }
    text += piece.written.slice(done);
    offset += piece.written.length;
  }
  return { text };
}

/** Whether `text` holds a marker: one of `held`'s, or anything shaped like one. */
export const holdsMarker = (text: string, held: readonly HeldMarker[]): boolean => markersIn(text, [...new Set(held.map((h) => h.marker))]).length > 0;

/** The markers in a written text, in order, not overlapping: the file's own markers, and anything shaped like one. */
function markersIn(text: string, known: readonly string[]): { at: number; marker: string }[] {
  const found = markerShapes(text);
  for (const marker of known) for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) found.push({ at, marker });
  found.sort((a, b) => a.at - b.at || b.marker.length - a.marker.length);
  const out: typeof found = [];
  for (const m of found) if (out.length === 0 || m.at >= out.at(-1)!.at + out.at(-1)!.marker.length) out.push(m);
  return out;
}

/** The line holding [at, at + length), without its ending, and the column it starts at. */
function lineAround(text: string, at: number, length: number): { line: string; column: number } {
  const start = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
  const newline = text.indexOf("\n", at + length);
  const line = text.slice(start, newline === -1 ? text.length : newline);
  return { line: line.endsWith("\r") ? line.slice(0, -1) : line, column: at - start };
}

/** What `marker` on `line` stands for, from the first pool that showed it; undefined when none did. */
function resolve(marker: string, { line, column }: { line: string; column: number }, pools: readonly (readonly HeldMarker[])[]): string | typeof AMBIGUOUS | undefined {
  const before = line.slice(0, column);
  const after = line.slice(column + marker.length);
  for (const pool of pools) {
    const same = pool.filter((h) => h.marker === marker);
    if (same.length === 0) continue;
    const atPlace = same.filter((h) => h.line === line && h.column === column);
    const alike = same.filter((h) => h.line.slice(0, h.column) === before || h.line.slice(h.column + marker.length) === after);
    for (const candidates of [same, atPlace, alike]) {
      const values = new Set(candidates.map((h) => h.value));
      if (values.size === 1) return candidates[0]!.value;
      // The same line shown twice with different values behind it: nothing on the line can tell them apart.
      if (values.size > 1 && candidates === atPlace) return AMBIGUOUS;
    }
    return AMBIGUOUS;
  }
  return undefined;
}
