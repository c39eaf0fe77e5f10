import { describe, expect, test } from "bun:test";
import { createKeyDecoder } from "../../../src/repl/key-decoder.ts";

const decode = (...chunks: string[]) => {
  const d = createKeyDecoder();
  return chunks.flatMap((c) => d.feed(c));
};

describe("the key decoder", () => {
  test("a burst of printable text is one key; Enter, Tab, Backspace and Ctrl letters are named", () => {
    expect(decode("héllo 漢字\r")).toEqual([{ name: "text", text: "héllo 漢字" }, { name: "enter" }]);
    expect(decode("\t\x7f\x01\x03\x04")).toEqual([{ name: "tab" }, { name: "backspace" }, { name: "ctrl-a" }, { name: "ctrl-c" }, { name: "ctrl-d" }]);
  });

  test("arrows, Home and End in their CSI, SS3 and ~ forms, with modifiers", () => {
    expect(decode("\x1b[A\x1b[D\x1bOH\x1b[1~\x1b[4~\x1b[F\x1b[3~")).toEqual([
      { name: "up" },
      { name: "left" },
      { name: "home" },
      { name: "home" },
      { name: "end" },
      { name: "end" },
      { name: "delete" },
    ]);
    expect(decode("\x1b[1;5D")).toEqual([{ name: "left", ctrl: true }]);
  });

  test("Alt-Enter, Ctrl-J and Shift-Enter reports insert a newline (enter with meta); Alt-letter is meta text", () => {
    expect(decode("\x1b\r", "\n", "\x1b[13;2u")).toEqual([{ name: "enter", meta: true }, { name: "enter", meta: true }, { name: "enter", meta: true }]);
    expect(decode("\x1bb")).toEqual([{ name: "text", text: "b", meta: true }]);
  });

  test("a bracketed paste is one key holding everything between the markers, split across chunks anywhere", () => {
    const keys = decode("ab\x1b[20", "0~line 1\rline\x1b[A 2\x03", "\x1b[20", "1~", "c");
    expect(keys).toEqual([{ name: "text", text: "ab" }, { name: "paste", text: "line 1\rline\x1b[A 2\x03" }, { name: "text", text: "c" }]);
  });

  test("a lone ESC waits until flushed (it may begin a sequence); a sequence cut in two is joined", () => {
    const d = createKeyDecoder();
    expect(d.feed("\x1b")).toEqual([]);
    expect(d.pending()).toBe(true);
    expect(d.flush()).toEqual([{ name: "escape" }]);
    expect(d.feed("\x1b[")).toEqual([]);
    expect(d.feed("B")).toEqual([{ name: "down" }]);
    expect(d.pending()).toBe(false);
  });
});
