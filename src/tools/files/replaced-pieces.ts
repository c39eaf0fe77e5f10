import { diffArrays } from "diff";
import { ToolError } from "../tool.ts";
import type { HeldMarker, RedactedView } from "./redacted-view.ts";
import { holdsMarker, type Piece } from "./restore-markers.ts";

/**
 * The pieces of `written` put in place of the shown stretch [from, to) of a file: the lines it shares
 * with that stretch, found by a line diff, are the file's own bytes; each run of lines in between stands
 * in place of the shown lines it replaced, whose markers are the first a written marker is matched with
 * (restore-markers.ts). So a line edited next to a secret, or copied whole, keeps the value it held.
 */
export function replacedPieces(view: RedactedView, from: number, to: number, written: string, shown: string): Piece[] {
  // Nothing to put back: the text is written as it is.
  if (!holdsMarker(written, view.held)) return [{ written, replaced: [] }];
  const before = linesOf(view.text.slice(from, to));
  const after = linesOf(written);
  refuseUnpaired(view, from, before, after, shown);
  const pieces: Piece[] = [];
  let at = from;
  // A run of changed lines: what was written there, and the markers of the shown lines it replaced.
  let hunk: { written: string; replaced: HeldMarker[] } = { written: "", replaced: [] };
  const flush = () => {
    if (hunk.written !== "") pieces.push(hunk);
    hunk = { written: "", replaced: [] };
  };
  for (const part of diffArrays(before, after)) {
    const text = part.value.join("");
    if (part.added) hunk.written += text;
    else if (part.removed) hunk.replaced.push(...view.heldIn(at, at + text.length));
    else {
      flush();
      pieces.push({ kept: view.original(at, at + text.length), shown: text });
    }
    if (!part.added) at += text.length;
  }
  flush();
  return pieces;
}

/**
 * Lines shown alike that hold different values (`KEY=[redacted .env]` twice, for two values): the diff
 * pairs them in order, which is right only while the written text keeps as many of them as were shown.
 * With some but not all, or more, which one went or came cannot be told, so the write is refused.
 */
function refuseUnpaired(view: RedactedView, from: number, before: string[], after: string[], shown: string): void {
  const values = new Map<string, Set<string>>();
  for (const h of view.held) values.set(h.marker, (values.get(h.marker) ?? new Set()).add(h.value));
  const shared = (h: HeldMarker) => values.get(h.marker)!.size > 1;
  const originals = new Map<string, Set<string>>();
  let at = from;
  for (const line of before) {
    if (view.heldIn(at, at + line.length).some(shared)) originals.set(line, (originals.get(line) ?? new Set()).add(view.original(at, at + line.length)));
    at += line.length;
  }
  for (const [line, texts] of originals) {
    const count = (lines: string[]) => lines.filter((l) => l === line).length;
    // Kept all (paired in order) or none (nothing to pair): either is clear.
    if (texts.size < 2 || count(after) === 0 || count(after) === count(before)) continue;
    const marker = view.held.find((h) => shared(h) && line.includes(h.marker))!.marker;
    throw new ToolError(
      `The new text keeps ${count(after)} of the ${count(before)} lines reading ${JSON.stringify(line.replace(/\r?\n$/, ""))}, which hold different secret values behind \`${marker}\` in ${shown}, so which is which cannot be told; nothing was written. ` +
        "Keep those lines as they were read (use edit_file to change the ones around them).",
    );
  }
}

/** A text's lines, each with its line break. */
const linesOf = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
