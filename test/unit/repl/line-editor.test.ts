import { describe, expect, test } from "bun:test";
import { edit, type Draft } from "../../../src/repl/line-editor.ts";
import { newer, older, startWalk } from "../../../src/repl/history-walk.ts";
import { cleanPaste, expandPastes, insertPaste, recallPrompt } from "../../../src/repl/paste.ts";

const at = (text: string, cursor: number): Draft => ({ text, cursor });

describe("line editing", () => {
  test("insert, backspace and delete at the cursor; an astral character is one step", () => {
    expect(edit.insert(at("ac", 1), "b")).toEqual(at("abc", 2));
    expect(edit.backspace(at("a😀", 3))).toEqual(at("a", 1));
    expect(edit.left(at("a😀b", 3))).toEqual(at("a😀b", 1));
    expect(edit.delete(at("abc", 0))).toEqual(at("bc", 0));
  });

  test("a paste's placeholder is deleted whole", () => {
    expect(edit.backspace(at("see [pasted 9 lines]", 20), ["[pasted 9 lines]"])).toEqual(at("see ", 4));
    expect(edit.delete(at("[pasted 9 lines] x", 0), ["[pasted 9 lines]"])).toEqual(at(" x", 0));
  });

  test("Home, End, Ctrl-U and Ctrl-K act on the cursor's line; ↑ and ↓ move between lines, undefined at the edges", () => {
    const d = at("one\ntwo three\nfour", 8);
    expect(edit.home(d).cursor).toBe(4);
    expect(edit.end(d).cursor).toBe(13);
    expect(edit.killToStart(d)).toEqual(at("one\nthree\nfour", 4));
    expect(edit.killToEnd(d)).toEqual(at("one\ntwo \nfour", 8));
    expect(edit.up(d)).toEqual(at(d.text, 3));
    expect(edit.down(d)).toEqual(at(d.text, 18));
    expect(edit.up(at("one\ntwo", 1))).toBeUndefined();
    expect(edit.down(at("one\ntwo", 5))).toBeUndefined();
  });

  test("word moves and deletes", () => {
    expect(edit.wordLeft(at("git commit -m", 13)).cursor).toBe(12);
    expect(edit.wordRight(at("git commit", 0)).cursor).toBe(3);
    expect(edit.killWordBack(at("git commit", 10))).toEqual(at("git ", 4));
  });
});

describe("history walk", () => {
  const entries = ["make test", "git status", "make build"];
  test("↑ walks back through entries starting with what was typed; ↓ past the newest gives it back", () => {
    let walk = startWalk(entries, "make");
    const a = older(entries, walk, "make")!;
    expect(a.text).toBe("make build");
    const b = older(entries, a.walk, a.text)!;
    expect(b.text).toBe("make test");
    expect(older(entries, b.walk, b.text)).toBeUndefined();
    expect(newer(entries, b.walk, b.text)!.text).toBe("make build");
    walk = newer(entries, b.walk, b.text)!.walk;
    expect(newer(entries, walk, "make build")).toEqual({ walk: { typed: "make", at: 3 }, text: "make" });
  });
});

describe("pastes", () => {
  test("line ends become \\n, escape codes and control bytes go, one final newline is trimmed", () => {
    expect(cleanPaste("a\r\nb\rc\x1b[31mred\x1b[0m\x07\n")).toBe("a\nb\ncred");
  });
  test("a short paste is inserted as it is; a long one as a numbered placeholder that expands on send", () => {
    expect(insertPaste("a\nb\nc", new Map()).insert).toBe("a\nb\nc");
    const first = insertPaste("1\n2\n3\n4", new Map());
    expect(first.insert).toBe("[pasted 4 lines]");
    const second = insertPaste("5\n6\n7\n8", first.pastes);
    expect(second.insert).toBe("[pasted 4 lines #2]");
    expect(insertPaste("x".repeat(1500), new Map()).insert).toBe("[pasted 1,500 chars]");
    expect(expandPastes("see [pasted 4 lines] and [pasted 4 lines #2]", second.pastes)).toBe("see 1\n2\n3\n4 and 5\n6\n7\n8");
    // An edited placeholder is no longer the paste: it is sent as typed.
    expect(expandPastes("[pasted 4 line]", second.pastes)).toBe("[pasted 4 line]");
    expect(recallPrompt("short")).toEqual({ text: "short", pastes: new Map() });
    expect(recallPrompt("a\nb\nc\nd").text).toBe("[pasted 4 lines]");
  });
});
