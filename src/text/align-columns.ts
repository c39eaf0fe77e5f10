import { clipLine } from "./one-line.ts";

export type AlignOptions = {
  /** Columns right-aligned (numbers). */
  right?: readonly number[];
  /** Lines are kept within this many characters (a terminal's width); see `clip` for how. */
  width?: number;
  /**
   * The column cut with an ellipsis to fit `width`, never below `min` characters. Without it the last
   * column word-wraps under itself instead when at least MIN_WRAP characters remain for it, and is cut
   * when fewer do. Whatever still passes `width` (leading columns wider than it) is cut at the edge.
   */
  clip?: { column: number; min: number };
};

/** Below this many characters for the last column, wrapping reads worse than the terminal's own wrap. */
const MIN_WRAP = 24;

/**
 * Rows as aligned text columns, two spaces apart. A left-aligned last column is left ragged so a long
 * description does not pad every line. One line per row, plus continuation lines where the last column wraps.
 */
export function alignColumns(rows: readonly (readonly string[])[], opts: AlignOptions = {}): string[] {
  const right = new Set(opts.right);
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (columns - 1);
  const limit = opts.width ?? Infinity;
  let cells = rows;
  const last = columns - 1;
  const lead = total - widths[last]!;
  // Too little room to wrap the last column readably: it is cut instead, so no line reaches the edge.
  const clip = opts.clip ?? (limit - (total - widths[last]!) < MIN_WRAP && !right.has(last) ? { column: last, min: 1 } : undefined);
  if (clip && total > limit) {
    const { column, min } = clip;
    const room = Math.max(min, widths[column]! - (total - limit));
    if (room < widths[column]!) {
      widths[column] = room;
      cells = rows.map((row) => row.map((cell, c) => (c === column ? clipLine(cell, room) : cell)));
    }
  }
  const wrapAt = !clip && limit - lead >= MIN_WRAP ? limit - lead : Infinity;
  const pad = (cell: string, column: number) => (right.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!));
  return cells.flatMap((row) => {
    const wraps = row.length === columns && !right.has(columns - 1);
    const [first, ...more] = wraps ? wrapWords(row[columns - 1]!, wrapAt) : [];
    const line = (wraps ? [...row.slice(0, -1), first!] : row).map(pad).join("  ").trimEnd();
    return [line, ...more.map((text) => " ".repeat(lead) + text)].map((l) => cutAt(l, limit));
  });
}

function cutAt(line: string, limit: number): string {
  if (line.length <= limit) return line;
  const kept = line.slice(0, limit - 1).trimEnd();
  return kept.endsWith("…") ? kept : `${kept}…`;
}

function wrapWords(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}
