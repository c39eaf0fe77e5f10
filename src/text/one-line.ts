import { withoutEscapes } from "./terminal-text.ts";

/** Errors, titles and call summaries are shown on one line: API messages and outputs carry newlines and runs of spaces. */
export const oneLine = (text: string): string => (TO_FLATTEN.test(text) ? text.replace(/\s+/g, " ").trim() : text);

// Most of what is flattened is one line already (a path, a short output line): tested, not rebuilt.
// Two spaces in a row, whitespace other than a space, or whitespace at either end is something to flatten.
const TO_FLATTEN = /\s\s|[^\S ]|^\s|\s$/;

/** `oneLine`, at most `max` characters; an ellipsis marks a cut. */
export function clipLine(text: string, max: number): string {
  const flat = oneLine(withoutEscapes(text));
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
