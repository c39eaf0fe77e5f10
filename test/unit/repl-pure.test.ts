import { describe, expect, test } from "bun:test";
import { parseApproval } from "../../src/repl/approval.ts";
import { completeSlash, helpMenu, parseSlash, unknownCommandLine, type SlashCommand } from "../../src/repl/slash-commands.ts";

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

describe("approval answers", () => {
  test("y, n with a reason, a; anything else is not an answer", () => {
    expect(parseApproval("y")).toEqual({ answer: "yes" });
    expect(parseApproval("n use the existing helper instead")).toEqual({ answer: "no", reason: "use the existing helper instead" });
    expect(parseApproval("no")).toEqual({ answer: "no" });
    expect(parseApproval("A")).toEqual({ answer: "always" });
    expect(parseApproval("maybe")).toBeUndefined();
  });
});
