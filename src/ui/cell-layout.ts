/**
 * Where text lands on a terminal `cols` cells wide, as the terminal itself places it: wide characters
 * take two cells and move whole to the next row when only one is left, combining marks take none,
 * a tab goes to the next stop of 8 without wrapping, escape sequences take no room. Pure.
 */
export type Cell = { row: number; col: number };

// CSI (colours, cursor moves) and OSC strings: zero width.
const ESCAPE = /^\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-_])/;

/**
 * The cell after the last character of `text` written from column 0. `col` may equal `cols`: the row
 * is full and the terminal waits to wrap until the next character arrives.
 */
export const endOf = (text: string, cols: number): Cell => walk(text, cols);

/** The index in `text` where each row after the first begins. */
export function rowStarts(text: string, cols: number): number[] {
  const starts: number[] = [];
  walk(text, cols, (index) => starts.push(index));
  return starts;
}

function walk(text: string, cols: number, onWrap?: (index: number) => void): Cell {
  let row = 0;
  let col = 0;
  for (let i = 0; i < text.length; ) {
    if (text[i] === "\x1b") {
      const escape = ESCAPE.exec(text.slice(i, i + 256));
      i += escape ? escape[0].length : 1;
      continue;
    }
    const code = text.codePointAt(i)!;
    const glyph = code > 0xffff ? String.fromCodePoint(code) : text[i]!;
    const wrap = () => {
      [row, col] = [row + 1, 0];
      onWrap?.(i);
    };
    if (glyph === "\t") {
      if (col >= cols) wrap();
      col = Math.min(cols - 1, (Math.floor(col / 8) + 1) * 8);
    } else {
      const width = code < 0x20 ? 0 : glyphWidth(code, glyph);
      if (width > 0 && col + width > cols) wrap();
      col += width;
    }
    i += glyph.length;
  }
  return { row, col };
}

/** How many rows `text` takes (at least one: an empty line is still a row). */
export const rowsOf = (text: string, cols: number): number => endOf(text, cols).row + 1;

/** Where the cursor shows after `text`: a full row's pending wrap is the start of the next row. */
export function cursorAfter(text: string, cols: number): Cell {
  const end = endOf(text, cols);
  return end.col >= cols ? { row: end.row + 1, col: 0 } : end;
}

/** Display width of `text` (what it takes on one unbounded row). */
export const widthOf = (text: string): number => endOf(text, Infinity).col;

/**
 * The longest start of `text` that fits `width` cells, with `…` in the last cell when it was cut.
 * Escape codes are kept; a colour cut before its closing code is reset after the `…`.
 */
export function clipToWidth(text: string, width: number): string {
  if (widthOf(text) <= width) return text;
  let out = "";
  let used = 0;
  for (let i = 0; i < text.length; ) {
    const escape = text[i] === "\x1b" ? ESCAPE.exec(text.slice(i, i + 256)) : null;
    if (escape) {
      out += escape[0];
      i += escape[0].length;
      continue;
    }
    const glyph = String.fromCodePoint(text.codePointAt(i)!);
    const w = glyph === "\t" ? 1 : glyphWidth(glyph.codePointAt(0)!, glyph);
    if (used + w > width - 1) break;
    out += glyph === "\t" ? " " : glyph;
    used += w;
    i += glyph.length;
  }
  return `${out}…${out.includes("\x1b[") ? "\x1b[0m" : ""}`;
}

function glyphWidth(code: number, glyph: string): number {
  if (code < 0x300) return code < 0x20 || code === 0x7f ? 0 : 1;
  return Bun.stringWidth(glyph);
}
