import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolCall, type CallOutcome } from "../../../../src/loop/run-tool-call.ts";
import { createMemoryStore } from "../../../../src/store/memory-store.ts";
import { createRememberTool } from "../../../../src/tools/notes/remember.ts";
import { createRecallTool } from "../../../../src/tools/notes/recall.ts";
import { createForgetTool } from "../../../../src/tools/notes/forget.ts";
import { renderNotesTable } from "../../../../src/ui/notes-table.ts";
import { noSecrets } from "../../../support/no-secrets.ts";

const setup = () => {
  const home = mkdtempSync(join(tmpdir(), "shiro-mem-"));
  const store = createMemoryStore(home, mkdtempSync(join(tmpdir(), "shiro-proj-")));
  const tools = [createRememberTool(store), createRecallTool(store), createForgetTool(store)];
  /** Runs one call the way the agent loop does (JSON arguments, schema check, never gated). */
  const call = async (name: string, args: unknown): Promise<CallOutcome> => {
    const gen = runToolCall(
      { type: "tool-call", callId: "c1", name, arguments: JSON.stringify(args) },
      { tools, root: "/", signal: new AbortController().signal, authorize: async () => ({ allowed: true }), commit: () => {}, ...noSecrets },
    );
    while (true) {
      const step = await gen.next();
      if (step.done) return step.value;
    }
  };
  return { store, tools, call };
};

describe("memory tools", () => {
  test("all three are meta tools with no subject, so no rule or guard gates them", () => {
    const { tools } = setup();
    expect(tools.map((t) => [t.name, t.kind, JSON.stringify(t.subject({}))])).toEqual([
      ["remember", "meta", "{}"],
      ["recall", "meta", "{}"],
      ["forget", "meta", "{}"],
    ]);
  });

  test("remember confirms, refuses a duplicate, and rejects an unknown kind", async () => {
    const { call } = setup();
    expect(await call("remember", { kind: "gotcha", text: "bun test needs SHIRO_HOME set" })).toEqual({
      output: "Remembered (gotcha): bun test needs SHIRO_HOME set",
      isError: false,
      denied: false,
    });
    expect((await call("remember", { kind: "fact", text: "BUN TEST needs  shiro_home set" })).output).toBe(
      "Already recorded: bun test needs SHIRO_HOME set",
    );
    const bad = await call("remember", { kind: "idea", text: "x" });
    expect(bad.isError).toBe(true);
    expect(bad.output).toStartWith("Invalid arguments for remember:");
  });

  test("recall lists matches as (kind) text; forget says how many it removed", async () => {
    const { call, store } = setup();
    await call("remember", { kind: "command", text: "lint with bun run typecheck" });
    await call("remember", { kind: "fact", text: "bun is pinned to 1.4.5" });
    expect((await call("recall", { query: "bun typecheck" })).output).toBe("- (command) lint with bun run typecheck");
    expect((await call("recall", { query: "python" })).output).toBe("No note contains all of: python");
    expect(JSON.parse(readFileSync(store.path, "utf8")).entries[0].hits).toBe(1);
    expect((await call("forget", { text: "BUN" })).output).toBe(
      "Forgot 2 notes:\n- (command) lint with bun run typecheck\n- (fact) bun is pinned to 1.4.5",
    );
    expect((await call("forget", { text: "bun" })).output).toBe("No note contains: bun");
    expect((await call("forget", { text: "  " })).isError).toBe(true);
  });

  test("a corrupt memory file becomes an error result the model can read, and stays untouched", async () => {
    const { call, store } = setup();
    mkdirSync(join(store.path, ".."), { recursive: true });
    writeFileSync(store.path, "not json");
    const out = await call("remember", { kind: "fact", text: "x" });
    expect(out.isError).toBe(true);
    expect(out.output).toStartWith("remember failed: project memory is unreadable, so nothing was changed:");
    expect(readFileSync(store.path, "utf8")).toBe("not json");
  });

  test("/notes shows every note with its hit count in aligned columns, most used first", async () => {
    const { call, store } = setup();
    await call("remember", { kind: "fact", text: "alpha" });
    await call("remember", { kind: "decision", text: "beta because gamma" });
    for (let i = 0; i < 12; i++) await call("recall", { query: "beta" });
    expect(renderNotesTable(await store.list())).toBe(
      ["hits  kind      note", "  12  decision  beta because gamma", "   0  fact      alpha"].join("\n"),
    );
    expect(renderNotesTable([])).toBe("No notes for this project yet (the agent records them with remember).");
  });
});
