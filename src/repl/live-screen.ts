import { terminalText } from "../text/terminal-text.ts";
import { cursorAfter, endOf, rowStarts, rowsOf } from "../ui/cell-layout.ts";

/** The rows drawn at the bottom of the terminal, redrawn in place: the input line, the status line, menus. */
export type Area = {
  /** One entry per terminal line; a long one wraps onto more rows, as the terminal wraps it. */
  rows: readonly string[];
  /** Where the cursor goes: in row `row`, after the text `before` (that row's start). */
  cursor: { row: number; before: string };
};

export type Terminal = { write(text: string): void; columns(): number; rows(): number };

const CSI = "\x1b[";
// Synchronised output: the terminal shows the erase and the redraw as one frame (others ignore it).
const FRAME_START = `${CSI}?2026h`;
const FRAME_END = `${CSI}?2026l`;
const RESET = `${CSI}0m`;
const closed = (text: string) => (text.includes(CSI) ? text + RESET : text);
/** The unfinished last line of the transcript is drawn with the area; at most this many of its rows. */
const PARTIAL_ROWS = 3;
const PARTIAL_CHARS = 4096;

/**
 * The transcript scrolls up above a live area that is erased and redrawn as a whole, so what is
 * typed, the status line and a streaming answer never splice into each other. Only finished lines go
 * to the transcript; the line still being written is the area's first row until its newline comes.
 * The area's height on screen is worked out from its text (wide characters, wraps), never read back.
 */
export function createLiveScreen(term: Terminal) {
  let partial = "";
  let area: Area = { rows: [], cursor: { row: 0, before: "" } };
  // What is on screen: its rows, and the physical row (from the top of the area) the cursor is on.
  let shown: { rows: string[]; cursor: { row: number; before: string } } | undefined;
  let cursorRow = 0;

  const erase = () => (shown ? `\r${cursorRow ? `${CSI}${cursorRow}A` : ""}${CSI}J` : "");

  function render(committed: string, cols = term.columns()): void {
    const rows = [...(partial ? [closed(tail(livePartial(partial), cols))] : []), ...area.rows];
    let row = area.cursor.row + (partial ? 1 : 0);
    let before = area.cursor.before;
    // A row filled to the last column leaves the cursor waiting to wrap: a space makes the cell it shows in.
    if (rows[row] !== undefined && endOf(before, cols).col >= cols && sameEnd(rows[row]!, before, cols)) rows[row] += " ";
    // Taller than the screen, the rows above the top could never be reached again to erase: drop them.
    const limit = Math.max(1, term.rows() - 1);
    while (rows.length > 1 && rows.reduce((n, r) => n + rowsOf(r, cols), 0) > limit) {
      if (row > 0) {
        rows.shift();
        row--;
      } else if (rows.length > row + 1) rows.pop();
      else break;
    }
    if (rows.length === 0) [row, before] = [0, ""];
    const above = rows.slice(0, row).reduce((n, r) => n + rowsOf(r, cols), 0);
    const target = cursorAfter(before, cols);
    const last = rows.reduce((n, r) => n + rowsOf(r, cols), 0) - 1;
    const up = last - (above + target.row);
    const place = rows.length ? `\r${up > 0 ? `${CSI}${up}A` : ""}${target.col ? `${CSI}${target.col}C` : ""}` : "";
    term.write(FRAME_START + erase() + committed + rows.join("\r\n") + place + FRAME_END);
    shown = rows.length ? { rows, cursor: { row, before } } : undefined;
    cursorRow = above + target.row;
  }

  return {
    /**
     * Transcript text: finished lines scroll up above the area, an unfinished one is drawn with it.
     * Only colours reach the terminal (a tool's output or the model's text cannot move the cursor, erase
     * or set the clipboard), and none outlasts its text: a colour left on cannot hide the next question.
     */
    output(text: string): void {
      const all = partial + text;
      const end = all.lastIndexOf("\n") + 1;
      partial = all.slice(end);
      render(closed(terminalText(all.slice(0, end)).replace(/\r?\n/g, "\r\n")));
    },
    /** The area's rows hold what others wrote too (an approval's patterns, a tool's progress): colours only, as the transcript. */
    draw(next: Area): void {
      area = { rows: next.rows.map(terminalText), cursor: { row: next.cursor.row, before: terminalText(next.cursor.before) } };
      render("");
    },
    /** The terminal changed width: it reflowed what was shown, so the cursor's row is found again at the new width. */
    resized(): void {
      if (shown) {
        const cols = term.columns();
        const { rows, cursor } = shown;
        cursorRow = rows.slice(0, cursor.row).reduce((n, r) => n + rowsOf(r, cols), 0) + cursorAfter(cursor.before, cols).row;
      }
      render("");
    },
    /** Erases the area and ends an unfinished line, leaving the cursor at the start of a fresh one. */
    close(): void {
      const rest = partial ? `${partial}\r\n` : "";
      partial = "";
      area = { rows: [], cursor: { row: 0, before: "" } };
      render(rest);
    },
  };
}

/** The area for output only (stdout is not a terminal): text as it comes, nothing drawn. */
export function createPlainScreen(write: (text: string) => void): ReturnType<typeof createLiveScreen> {
  return { output: write, draw: () => {}, resized: () => {}, close: () => {} };
}

const sameEnd = (row: string, before: string, cols: number) => {
  const [a, b] = [endOf(row, cols), endOf(before, cols)];
  return a.row === b.row && a.col === b.col;
};

/**
 * The unfinished line as the area shows it: after its last carriage return (a progress bar's latest
 * state) and with its colours, but without codes that would move the cursor inside the area.
 */
function livePartial(text: string): string {
  return terminalText(text.slice(text.lastIndexOf("\r") + 1));
}

/** The last PARTIAL_ROWS rows of a long unfinished line (its colours before the cut carried over). */
function tail(text: string, cols: number): string {
  // Only the end can show: a long line (minified output) is not measured whole on every redraw.
  const end = text.length > PARTIAL_CHARS ? text.slice(-PARTIAL_CHARS) : text;
  const starts = rowStarts(end, cols);
  if (starts.length < PARTIAL_ROWS) return end;
  const cut = starts[starts.length - PARTIAL_ROWS]!;
  const colours = end.slice(0, cut).match(/\x1b\[[0-9;]*m/g)?.join("") ?? "";
  return colours + end.slice(cut);
}
