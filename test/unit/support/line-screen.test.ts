import { describe, expect, test } from "bun:test";
import { LineScreen } from "../../support/line-screen.ts";

function render(chunks: string[], cols = 80): LineScreen {
  const screen = new LineScreen(cols, 24);
  for (const chunk of chunks) screen.feed(chunk);
  return screen;
}
const text = (chunks: string[], cols = 80) => render(chunks, cols).text();

describe("LineScreen", () => {
  test("carriage return overwrites, erase-line clears the rest", () => {
    expect(text(["hello\rJ"])).toBe("Jello");
    expect(text(["hello\r\x1b[Kbye"])).toBe("bye");
    expect(text(["hello\x1b[3G\x1b[0K"])).toBe("he");
    expect(text(["hello\x1b[3G\x1b[1K"])).toBe("   lo");
    expect(text(["hello\x1b[2K!"])).toBe("     !");
  });

  test("cursor moves on the line and backspace", () => {
    expect(text(["abcdef\x1b[3Gx"])).toBe("abxdef");
    expect(text(["abcdef\x1b[2Dx"])).toBe("abcdxf");
    expect(text(["ab\x1b[3Cx"])).toBe("ab   x");
    expect(text(["abc\b\bX"])).toBe("aXc");
  });

  test("readline's prompt redraw leaves only the latest input line", () => {
    const screen = render(["[line \"one\"]\r\n", "\x1b[1G\x1b[0J> wor\x1b[6G", "\x1b[1G\x1b[0J> t\x1b[4G"]);
    expect(screen.text()).toBe('[line "one"]\n> t');
    expect(screen.currentLine()).toBe("> t");
  });

  test("colours, modes and titles are invisible; a sequence split across chunks still parses", () => {
    expect(text(["\x1b[31mred\x1b[0m \x1b[?25lok\x1b[?25h"])).toBe("red ok");
    expect(text(["\x1b]0;title\x07a", "\x1b]2;t\x1b\\b"])).toBe("ab");
    expect(text(["ab\x1b[", "31", "mcd"])).toBe("abcd");
    expect(text(["\x1b(Bx\x1b=y"])).toBe("xy");
  });

  test("line feed keeps the column as a real terminal does; CR LF starts a fresh line", () => {
    expect(text(["ab\ncd"])).toBe("ab\n  cd");
    expect(text(["ab\r\ncd\r\n"])).toBe("ab\ncd\n");
  });

  test("long lines wrap at the width but read back as one line; cursor-up reaches the wrapped rows", () => {
    expect(text(["abcdefghij"], 4)).toBe("abcdefghij");
    // readline redraws a wrapped input line by moving up to its first row and clearing downwards.
    const screen = render(["x\r\n", "> abcdefg", "\x1b[1A\x1b[1G\x1b[0J> hi"], 5);
    expect(screen.text()).toBe("x\n> hi");
  });

  test("wide characters take two cells", () => {
    expect(text(["日本語"], 4)).toBe("日本語");
    // The other half of the overwritten wide char shows as a blank, as on a real terminal.
    expect(text(["日本\x1b[3Gx"])).toBe("日x ");
    expect(text(["a😀b"])).toBe("a😀b");
  });

  test("absolute cursor position counts rows from the top of the visible screen", () => {
    const screen = new LineScreen(20, 3);
    screen.feed("1\r\n2\r\n3\r\n4\r\n5");
    screen.feed("\x1b[1;1HX");
    expect(screen.text()).toBe("1\n2\nX\n4\n5");
  });

  test("erase display: 0J drops everything below, 2J blanks it all", () => {
    expect(text(["a\r\nb\r\nc\x1b[2A\x1b[1G\x1b[0J"])).toBe("");
    expect(text(["a\r\nbc\x1b[1D\x1b[J"])).toBe("a\nb");
    expect(text(["a\r\nb\x1b[2J"]).trim()).toBe("");
  });
});

describe("LineScreen resize", () => {
  test("reflows soft-wrapped lines to the new width, the cursor staying on its character", () => {
    const screen = new LineScreen(10, 24);
    screen.feed("top\r\n0123456789abcdefghij\x1b[5D");
    screen.resize(6, 24);
    expect(screen.lines()).toEqual(["top", "0123456789abcdefghij"]);
    screen.feed("\x1b[1A\rX");
    // The cursor was on "f" (row 2 of the reflowed line); one row up is the row starting with "6".
    expect(screen.lines()).toEqual(["top", "012345X789abcdefghij"]);
  });
});
