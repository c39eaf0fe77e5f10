/**
 * Issue 32: while the first look at a project goes on, a call that only reads runs at once; one that
 * may write (a file tool's write, a command not confined to reading, a PostToolUse hook that will run)
 * waits for it. `beforeWrite` here never settles unless released, so a call that ran did not wait.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { runToolCall } from "../../../src/loop/run-tool-call.ts";
import { createHooks, type SessionHooks } from "../../../src/hooks/create-hooks.ts";
import type { Authorization } from "../../../src/tools/authorize-request.ts";
import { defineTool, type ToolKind } from "../../../src/tools/tool.ts";
import { createRedactor } from "../../../src/secrets/redact.ts";

const ran: string[] = [];
const tool = (name: string, kind: ToolKind) =>
  defineTool({ name, description: name, schema: z.object({}), kind, subject: () => ({}), run: async () => (ran.push(name), { output: `${name} ran` }) });
const tools = [tool("reader", "read"), tool("writer", "write"), tool("command", "exec"), tool("note", "meta")];

/** A gate that settles only when released, and says whether it was asked. */
function gate() {
  let release = () => {};
  const g = { asked: 0, release: () => release(), wait: () => (g.asked++, new Promise<void>((resolve) => (release = resolve))) };
  return g;
}

async function call(name: string, verdict: Authorization, beforeWrite: () => Promise<void>, hooks?: SessionHooks) {
  const events = runToolCall(
    { type: "tool-call", callId: `c-${name}`, name, arguments: "{}" },
    { tools, root: "/", signal: new AbortController().signal, authorize: async () => verdict, commit: () => {}, host: { env: {}, redactor: createRedactor([]) }, beforeWrite, ...(hooks ? { hooks } : {}) },
  );
  for (;;) if ((await events.next()).done) return;
}

describe("a call waits for the first look only if it may write", () => {
  test("a read, a note, and a command in the read-only sandbox run without waiting", async () => {
    const g = gate();
    ran.length = 0;
    await call("reader", { allowed: true }, g.wait);
    await call("note", { allowed: true }, g.wait);
    await call("command", { allowed: true, sandbox: "read-only" }, g.wait);
    expect(ran).toEqual(["reader", "note", "command"]);
    expect(g.asked).toBe(0);
  });

  for (const [name, verdict] of [["writer", { allowed: true }], ["command", { allowed: true, sandbox: "workspace-write" }]] as const) {
    test(`${name === "writer" ? "a file tool's write" : "a command that may write the project"} runs only once the look is done`, async () => {
      const g = gate();
      ran.length = 0;
      const running = call(name, verdict, g.wait);
      // Until the gate is asked (or, where nothing waits, the call ran): then the call must not have run.
      while (g.asked === 0 && ran.length === 0) await Bun.sleep(1);
      await Bun.sleep(20);
      expect(ran).toEqual([]);
      g.release();
      await running;
      expect(ran).toEqual([name]);
    });
  }

  test("a PostToolUse hook that will run after a read waits too (a formatter writes); after a tool it does not match, nothing waits", async () => {
    const hook = { event: "PostToolUse" as const, matcher: "reader", command: "fmt", timeoutS: 5, onFailure: "allow" as const, source: "test" };
    const hooks = createHooks({ definitions: [hook], bash: { why: "not here" }, sandbox: async () => undefined, cwd: "/", env: {}, warn: () => {} }).forSession({ sessionId: () => "s", record: () => {} });
    const g = gate();
    ran.length = 0;
    await call("note", { allowed: true }, g.wait, hooks);
    expect(g.asked).toBe(0);
    const running = call("reader", { allowed: true }, g.wait, hooks);
    await Promise.race([running, (async () => { while (g.asked === 0) await Bun.sleep(1); })()]);
    expect(g.asked).toBe(1);
    g.release();
    await running;
    expect(ran).toEqual(["note", "reader"]);
  });
});
