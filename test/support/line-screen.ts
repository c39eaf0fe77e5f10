// A minimal terminal emulator for tests: turns the bytes a program writes to a pty into the text a person
// would read. It keeps every row (scrollback included, no scrolling region), wraps at `cols` like a real
// terminal and remembers which rows are soft-wrap continuations so long lines read back as one line.
// A resize reflows those lines to the new width, as tmux and most terminals do, cursor included.
// Handled: printable text (wide chars take two cells), \r \n \b \t, CSI A B C D E F G H f J K;
// every other escape (colours, modes, OSC titles) is swallowed.

const ESC = "\x1b";

export class LineScreen {
  private rows: string[][] = [[]];
  // wrapped[i] — row i continues row i-1 because the text ran past the right edge.
  private wrapped: boolean[] = [false];
  private row = 0;
  private col = 0;
  // An escape sequence cut in half by a chunk boundary waits here for the rest.
  private pending = "";

  constructor(
    private cols = 80,
    private height = 24,
  ) {}

  resize(cols: number, height: number): void {
    this.height = height;
    if (cols === this.cols) return;
    // Logical lines as cells, and the cursor as a cell offset into its line.
    const lines: string[][] = [];
    let cursor = { line: 0, offset: 0 };
    for (let r = 0; r < this.rows.length; r++) {
      if (!this.wrapped[r] || lines.length === 0) lines.push([]);
      const line = lines[lines.length - 1]!;
      if (r === this.row) cursor = { line: lines.length - 1, offset: line.length + this.col };
      // A continued row's cells up to the old width (the last one may have been a gap before a wide char).
      const cells = [...this.rows[r]!];
      if (this.wrapped[r + 1]) while (cells.length < this.cols) cells.push(" ");
      line.push(...cells);
    }
    this.cols = cols;
    this.rows = [];
    this.wrapped = [];
    lines.forEach((cells, index) => {
      let row: string[] = [];
      this.rows.push(row);
      this.wrapped.push(false);
      let offset = 0;
      const place = () => {
        if (index === cursor.line && offset === cursor.offset) [this.row, this.col] = [this.rows.length - 1, row.length];
      };
      for (let i = 0; i < cells.length; i++) {
        const wide = cells[i + 1] === "";
        if (row.length + (wide ? 2 : 1) > cols) {
          row = [];
          this.rows.push(row);
          this.wrapped.push(true);
        }
        place();
        row.push(cells[i]!);
        offset++;
        if (wide) {
          row.push("");
          i++;
          offset++;
        }
      }
      if (index === cursor.line && cursor.offset >= offset) {
        // Past the end of the line's text (after spaces never written): on its last row, at most at the edge.
        [this.row, this.col] = [this.rows.length - 1, Math.min(cols, row.length + (cursor.offset - offset))];
      }
    });
    if (this.rows.length === 0) [this.rows, this.wrapped, this.row, this.col] = [[[]], [false], 0, 0];
  }

  feed(chunk: string): void {
    const text = this.pending + chunk;
    this.pending = "";
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === ESC) {
        const end = escapeEnd(text, i);
        if (end === -1) {
          this.pending = text.slice(i);
          return;
        }
        if (text[i + 1] === "[") this.csi(text.slice(i + 2, end - 1), text[end - 1]!);
        i = end;
        continue;
      }
      const code = text.codePointAt(i)!;
      const glyph = code > 0xffff ? String.fromCodePoint(code) : ch;
      i += glyph.length;
      if (code < 0x20 || code === 0x7f) this.control(ch);
      else this.print(glyph);
    }
  }

  /** Logical lines, soft wraps joined. Erased cells vanish, so trailing spaces are ones the program wrote. */
  lines(): string[] {
    const out: string[] = [];
    for (let r = 0; r < this.rows.length; r++) {
      const text = this.rows[r]!.join("");
      if (this.wrapped[r] && out.length > 0) out[out.length - 1] += text;
      else out.push(text);
    }
    return out;
  }

  text(): string {
    return this.lines().join("\n");
  }

  /** The logical line the cursor is on — e.g. the REPL's input line with its prompt. */
  currentLine(): string {
    let first = this.row;
    while (first > 0 && this.wrapped[first]) first--;
    let last = this.row;
    while (last + 1 < this.rows.length && this.wrapped[last + 1]) last++;
    return this.rows
      .slice(first, last + 1)
      .map((cells) => cells.join(""))
      .join("");
  }

  private print(glyph: string): void {
    const width = glyphWidth(glyph);
    if (width === 0) {
      const cells = this.rows[this.row]!;
      if (this.col > 0) cells[this.col - 1] = (cells[this.col - 1] ?? " ") + glyph;
      return;
    }
    // Deferred wrap: the cursor may sit just past the last column until the next glyph arrives.
    if (this.col + width > this.cols) {
      this.moveToRow(this.row + 1);
      this.wrapped[this.row] = true;
      this.col = 0;
    }
    this.put(glyph, width);
  }

  private put(glyph: string, width: number): void {
    const cells = this.rows[this.row]!;
    while (cells.length < this.col) cells.push(" ");
    // Overwriting half of a wide char blanks its other half.
    if (cells[this.col] === "" && this.col > 0) cells[this.col - 1] = " ";
    cells[this.col] = glyph;
    if (width === 2) cells[this.col + 1] = "";
    const after = this.col + width;
    if (cells[after] === "") cells[after] = " ";
    this.col = after;
  }

  private control(ch: string): void {
    if (ch === "\r") this.col = 0;
    else if (ch === "\n") this.moveToRow(this.row + 1);
    else if (ch === "\b") this.col = Math.max(0, Math.min(this.col, this.cols - 1) - 1);
    else if (ch === "\t") this.col = Math.min(this.cols - 1, (Math.floor(this.col / 8) + 1) * 8);
    // Bell and the other C0 codes change nothing visible.
  }

  private csi(params: string, final: string): void {
    if (params.startsWith("?") || params.startsWith(">")) return;
    const nums = params.split(";").map((p) => (p === "" ? NaN : Number(p)));
    const n = Number.isNaN(nums[0]!) ? 1 : Math.max(1, nums[0]!);
    const mode = Number.isNaN(nums[0]!) ? 0 : nums[0]!;
    switch (final) {
      case "A":
        this.row = Math.max(0, this.row - n);
        break;
      case "B":
        this.moveToRow(this.row + n);
        break;
      case "C":
        this.col = Math.min(this.cols - 1, this.col + n);
        break;
      case "D":
        this.col = Math.max(0, Math.min(this.col, this.cols - 1) - n);
        break;
      case "E":
        this.moveToRow(this.row + n);
        this.col = 0;
        break;
      case "F":
        this.row = Math.max(0, this.row - n);
        this.col = 0;
        break;
      case "G":
        this.col = Math.min(this.cols, n) - 1;
        break;
      case "H":
      case "f": {
        const top = Math.max(0, this.rows.length - this.height);
        this.moveToRow(top + n - 1);
        this.col = Math.min(this.cols, Number.isNaN(nums[1] ?? NaN) ? 1 : Math.max(1, nums[1]!)) - 1;
        break;
      }
      case "K":
        this.eraseInLine(mode);
        break;
      case "J":
        this.eraseInDisplay(mode);
        break;
    }
  }

  private eraseInLine(mode: number): void {
    const cells = this.rows[this.row]!;
    if (mode === 0) cells.length = Math.min(cells.length, this.col);
    else if (mode === 1) for (let c = 0; c <= this.col && c < cells.length; c++) cells[c] = " ";
    else if (mode === 2) cells.length = 0;
  }

  private eraseInDisplay(mode: number): void {
    if (mode === 0) {
      this.eraseInLine(0);
      this.rows.length = this.row + 1;
      this.wrapped.length = this.row + 1;
    } else if (mode === 1) {
      for (let r = 0; r < this.row; r++) this.rows[r] = [];
      this.eraseInLine(1);
    } else {
      // 2J/3J: a cleared screen reads as empty; keep the cursor where it was.
      this.rows = this.rows.map(() => []);
      this.wrapped = this.wrapped.map(() => false);
    }
  }

  private moveToRow(target: number): void {
    while (this.rows.length <= target) {
      this.rows.push([]);
      this.wrapped.push(false);
    }
    this.row = target;
  }
}

/** Index just past the escape sequence starting at `start`, or -1 when the text ends inside it. */
function escapeEnd(text: string, start: number): number {
  const kind = text[start + 1];
  if (kind === undefined) return -1;
  if (kind === "[") {
    for (let i = start + 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i + 1;
    }
    return -1;
  }
  if (kind === "]" || kind === "P" || kind === "_" || kind === "^") {
    // OSC/DCS strings end with BEL or ESC \.
    for (let i = start + 2; i < text.length; i++) {
      if (text[i] === "\x07") return i + 1;
      if (text[i] === ESC) return i + 1 < text.length ? i + 2 : -1;
    }
    return -1;
  }
  // Charset selection (ESC ( B) takes one more byte; everything else (ESC 7, ESC =) is two bytes.
  if (kind === "(" || kind === ")") return start + 2 < text.length ? start + 3 : -1;
  return start + 2;
}

function glyphWidth(glyph: string): number {
  const code = glyph.codePointAt(0)!;
  if (code < 0x300) return 1;
  return Bun.stringWidth(glyph);
}
