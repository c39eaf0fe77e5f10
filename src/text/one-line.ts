/** Errors, titles and call summaries are shown on one line: API messages and outputs carry newlines and runs of spaces. */
export const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

/** `oneLine`, at most `max` characters; an ellipsis marks a cut. */
export function clipLine(text: string, max: number): string {
  const flat = oneLine(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
