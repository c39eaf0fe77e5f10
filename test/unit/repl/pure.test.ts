import { describe, expect, test } from "bun:test";
import { approvalKey, approvalQuestion, type Approval } from "../../../src/repl/approval.ts";
import type { Key } from "../../../src/repl/key-decoder.ts";
import { completeSlash, helpMenu, parseSlash, unknownCommandLine, type SlashCommand } from "../../../src/repl/slash-commands.ts";

const table: SlashCommand<null>[] = ["help", "model", "clear", "tools", "exit", "sessions"].map((name) => ({
  name,
  summary: `${name} summary`,
  ...(name === "model" ? { args: "[id]" } : {}),
  run: async () => {},
}));

describe("slash commands", () => {
  test("parse a command and its argument", () => {
    const parsed = parseSlash("/model  gpt-5-mini ", table);
    expect(parsed.kind === "command" && [parsed.command.name, parsed.arg]).toEqual(["model", "gpt-5-mini"]);
  });
  test("an unknown command suggests the nearest", () => {
    const parsed = parseSlash("/modle", table);
    expect(parsed.kind).toBe("unknown");
    expect(unknownCommandLine(parsed as { name: string; suggestion?: string })).toBe("unknown command /modle — did you mean /model? (see /help)");
    expect(unknownCommandLine(parseSlash("/zzzzzzzzz", table) as { name: string })).toBe("unknown command /zzzzzzzzz (see /help)");
  });
  test("help is aligned and completion comes from the same table", () => {
    expect(helpMenu(table).split("\n").slice(0, 2)).toEqual(["  /help        help summary", "  /model [id]  model summary"]);
    expect(completeSlash("/s", table)).toEqual(["/sessions"]);
    expect(completeSlash("/", table)).toHaveLength(6);
  });
});

describe("approval keys", () => {
  const q: Approval = { always: ["git log *"] };
  const text = (t: string): Key => ({ name: "text", text: t });
  const press = (state: Approval, ...keys: Key[]) => {
    let step = approvalKey(state, keys[0]!);
    for (const key of keys.slice(1)) step = approvalKey((step as { next: Approval }).next, key);
    return step;
  };
  test("y and a answer at once; Esc and Ctrl-C stop; Ctrl-D quits", () => {
    expect(approvalKey(q, text("y"))).toEqual({ answer: { answer: "yes" } });
    expect(approvalKey(q, text("A"))).toEqual({ answer: { answer: "always" } });
    expect(approvalKey(q, { name: "escape" })).toEqual({ stop: true });
    expect(approvalKey(q, { name: "ctrl-c" })).toEqual({ stop: true });
    expect(approvalKey(q, { name: "ctrl-d" })).toEqual({ eof: true });
  });
  test("n opens a reason: Enter sends it (or none), Backspace on an empty one goes back", () => {
    expect(press(q, text("n"), { name: "enter" })).toEqual({ answer: { answer: "no" } });
    expect(press(q, text("n"), text(" use the helper"), { name: "enter" })).toEqual({ answer: { answer: "no", reason: "use the helper" } });
    expect(press(q, text("n keep it"), { name: "enter" })).toEqual({ answer: { answer: "no", reason: "keep it" } });
    expect(press(q, text("n"), text("x"), { name: "backspace" }, { name: "backspace" })).toEqual({ next: { always: ["git log *"] } });
  });
  test("any other key is named and the choices offered again", () => {
    const step = approvalKey(q, text("m")) as { next: Approval };
    expect(approvalQuestion(step.next)).toBe('"m" is not an answer; type y, n (n <reason>) or a (always for git log *): ');
    expect(approvalQuestion(q)).toStartWith("allow? [y]es");
  });
});

describe("nearest names", () => {
  test("names containing the word first, then the closest by edit distance", async () => {
    const { nearestNames } = await import("../../../src/text/nearest.ts");
    expect(nearestNames("gpt-4.2", ["gpt-5", "gpt-4.1", "o3", "gpt-4o", "gpt-4.1-mini"])).toEqual(["gpt-4.1", "gpt-4o", "gpt-5"]);
    expect(nearestNames("mini", ["gpt-5-mini", "gpt-5", "o4-mini"], 2)).toEqual(["gpt-5-mini", "o4-mini"]);
  });
});
