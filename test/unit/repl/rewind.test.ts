import { describe, expect, test } from "bun:test";
import pc from "picocolors";
import { COMMANDS } from "../../../src/repl/commands.ts";
import { createDoubleEscape, DOUBLE_ESCAPE_MS } from "../../../src/repl/double-escape.ts";
import type { Key } from "../../../src/repl/key-decoder.ts";
import { pickKey, type PickList } from "../../../src/repl/pick-list.ts";
import { composeArea } from "../../../src/repl/repl-view.ts";
import { completeSlash, parseSlash, slashMenu } from "../../../src/repl/slash-commands.ts";
import { typedPrompt } from "../../../src/repl/typed-prompt.ts";

describe("Esc Esc", () => {
  test("two presses within the window are a double; one later than that starts over", () => {
    const escapes = createDoubleEscape();
    expect(escapes.press(1000)).toBe(false);
    expect(escapes.press(1000 + DOUBLE_ESCAPE_MS)).toBe(true);
    expect(escapes.press(1000 + DOUBLE_ESCAPE_MS + 10)).toBe(false); // a third press is a new first one
    expect(escapes.press(5000)).toBe(false);
    expect(escapes.press(5000 + DOUBLE_ESCAPE_MS + 1)).toBe(false); // too slow: this one is the first again
    expect(escapes.press(5000 + DOUBLE_ESCAPE_MS + 100)).toBe(true);
  });
  test("another key between the two makes them singles", () => {
    const escapes = createDoubleEscape();
    escapes.press(0);
    escapes.reset();
    expect(escapes.press(100)).toBe(false);
    expect(escapes.press(200)).toBe(true);
  });
});

describe("the rewind picker's keys", () => {
  const list: PickList = { title: "rewind?", rows: ["turn 3", "turn 2", "turn 1"], hint: "", pick: 0 };
  const press = (...keys: Key["name"][]) => {
    let state = list;
    for (const name of keys.slice(0, -1)) state = (pickKey(state, { name } as Key) as { next: PickList }).next;
    return pickKey(state, { name: keys.at(-1)! } as Key);
  };
  test("↓ moves to older turns, wrapping at either end, and Enter takes the picked row", () => {
    expect(press("down", "down", "enter")).toEqual({ chosen: 2 });
    expect(press("up", "enter")).toEqual({ chosen: 2 });
    expect(press("down", "down", "down", "enter")).toEqual({ chosen: 0 });
    expect(press("end", "home", "ctrl-n", "enter")).toEqual({ chosen: 1 });
  });
  test("Esc and Ctrl-C cancel, Ctrl-D quits, a letter or Alt-Enter changes nothing", () => {
    expect(press("down", "escape")).toEqual({ cancelled: true });
    expect(press("ctrl-c")).toEqual({ cancelled: true });
    expect(press("ctrl-d")).toEqual({ eof: true });
    expect(pickKey(list, { name: "text", text: "y" })).toEqual({ next: list });
    expect(pickKey(list, { name: "enter", meta: true })).toEqual({ next: list });
  });
  test("drawn in place of the prompt: title, rows with the picked one marked, the hint", () => {
    const area = composeArea({
      prompt: "› ",
      draft: { text: "", cursor: 0 },
      choices: [],
      menu: [],
      queued: [],
      question: { text: "rewind?", list: { rows: list.rows, pick: 1 }, hint: "Esc cancels" },
      columns: 80,
      c: pc.createColors(false),
    });
    expect(area.rows).toEqual(["rewind?", "  turn 3", "› turn 2", "  turn 1", "  Esc cancels"]);
    expect(area.cursor).toEqual({ row: 0, before: "rewind?" });
  });
});

describe("an undone turn's prompt, back in the prompt line", () => {
  test("the files its @mentions attached are left off (the mentions attach them again)", () => {
    expect(typedPrompt('fix @a.ts and @b.ts\n\n<file path="a.ts">\nx\n</file>\n\n<file path="b.ts">\ny\n</file>')).toBe("fix @a.ts and @b.ts");
    expect(typedPrompt("two lines\nof prompt")).toBe("two lines\nof prompt");
    // Only blocks that run to the end were attached; a tag in the middle of what was typed stays.
    expect(typedPrompt('see\n\n<file path="x">\nbody\n</file>\nthen this')).toBe('see\n\n<file path="x">\nbody\n</file>\nthen this');
  });
});

describe("/undo and /rewind in the command table", () => {
  test("they parse, complete, show in the menu and are refused during a turn", () => {
    const undo = parseSlash("/undo --force", COMMANDS);
    expect(undo.kind === "command" && [undo.command.name, undo.arg, undo.command.notDuringTurn]).toEqual(["undo", "--force", true]);
    const rewind = parseSlash("/rewind", COMMANDS);
    expect(rewind.kind === "command" && rewind.command.notDuringTurn).toBe(true);
    expect(completeSlash("/re", COMMANDS)).toContain("/rewind");
    expect(completeSlash("/un", COMMANDS)).toEqual(["/undo"]);
    expect(slashMenu("/un", COMMANDS).map(([usage]) => usage)).toEqual(["/undo [--force]"]);
  });
});
