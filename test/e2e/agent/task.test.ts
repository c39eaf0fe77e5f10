/**
 * Agents that start agents (issue 34), through the binary against the strict server: three `task`
 * calls in one response run at once, each child with its own instructions and first message, and
 * the parent's next request holds their three answers; `--json` ties every child event to its child
 * and to the call that started it; the child's log is referenced from the parent's, not copied;
 * inspect shows the tree and export carries it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { firstUserText, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const PARENT = "Review the three modules and tell me which needs work.";
const MODULES = ["alpha", "beta", "gamma"];

/** Resolves once `n` children are waiting on it at the same time: children run one after another never get there. */
function meeting(n: number) {
  let arrived = 0;
  let open: () => void = () => {};
  const all = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived >= n) open();
    // A guard against a hang, not a measure: children run one at a time answer "alone" and the test fails on that.
    return Promise.race([all.then(() => "together"), Bun.sleep(20_000).then(() => "alone")]);
  };
}

let server: StrictServer;
let meet = meeting(3);
const model: ScriptedModel = async ({ input }) => {
  const first = firstUserText(input);
  if (first === PARENT) {
    const answers = visibleOutputs(input).filter((o) => o.name === "task");
    if (answers.length === 0) return { calls: MODULES.map((m) => ({ name: "task", arguments: { description: `review ${m}`, prompt: `Review module ${m}.`, agent: null } })) };
    return { text: `Summary: ${answers.map((a) => a.output.split("\n")[0]).join(" | ")}` };
  }
  const module = /^Review module (\w+)\.$/.exec(first)?.[1];
  if (!module) return { text: "unexpected" };
  const how = await meet();
  return { text: `${module} is fine (${how})` };
};

beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": model } });
});
afterAll(() => server.stop());

test("three task calls in one response: three children at once, each with its own first message; their answers in the parent's next request", async () => {
  meet = meeting(3);
  const home = tempDir("home");
  const cwd = tempDir("proj");
  try {
    writeFileSync(join(cwd, "README.md"), "three modules\n");
    const from = server.requests.length;
    const run = await runShiro(["-p", PARENT, "--json"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect(run.code).toBe(0);
    const bodies = server.requests.slice(from).filter((r) => r.path.endsWith("/responses")).map((r) => r.body);
    const children = bodies.filter((b) => firstUserText(b.input) !== PARENT);
    expect(children.map((b) => firstUserText(b.input)).sort()).toEqual(MODULES.map((m) => `Review module ${m}.`));
    // A child is offered its parent's tools but `task` (agents.maxDepth 1), under shiro's own instructions.
    for (const child of children) {
      expect(child.tools.map((t: { name: string }) => t.name)).not.toContain("task");
      expect(child.tools.map((t: { name: string }) => t.name)).toContain("read_file");
      expect(child.input.filter((i: { type: string }) => i.type === "function_call_output")).toEqual([]);
    }
    const last = bodies.filter((b) => firstUserText(b.input) === PARENT).at(-1)!;
    const outputs = last.input.filter((i: { type: string }) => i.type === "function_call_output").map((i: { output: string }) => i.output);
    expect(outputs).toHaveLength(3);
    for (const m of MODULES) expect(outputs.some((o: string) => o.startsWith(`${m} is fine (together)\n\n[general agent: changed no file through its file tools; 1 step,`))).toBe(true);

    // --json: every child event names its child and the call that started it; one start and one end each.
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const starts = lines.filter((l) => l.type === "agent-start");
    const ends = lines.filter((l) => l.type === "agent-end");
    expect(starts).toHaveLength(3);
    expect(ends.map((e) => e.status)).toEqual(["done", "done", "done"]);
    const calls = lines.filter((l) => l.type === "tool-call" && l.name === "task" && l.agentId === undefined).map((l) => l.callId);
    expect(new Set(starts.map((s) => s.parentCallId))).toEqual(new Set(calls));
    const childLines = lines.filter((l) => l.agentId !== undefined && l.type !== "agent-start" && l.type !== "agent-end");
    expect(childLines.length).toBeGreaterThan(0);
    for (const line of childLines) expect(starts.some((s) => s.agentId === line.agentId && s.parentCallId === line.parentCallId)).toBe(true);
    for (const end of ends) expect(end.usage.inputTokens).toBeGreaterThan(0);
    // The result's usage is the whole tree's: more than the children's three calls alone (the parent's two are in it).
    const result = lines.find((l) => l.type === "result");
    const childrenIn = ends.reduce((sum, e) => sum + e.usage.inputTokens, 0);
    expect(result.usage.inputTokens).toBeGreaterThan(childrenIn);

    // Four logs: the parent's names each child's by id; a child's is its own conversation, not in the parent's.
    const logs = readdirSync(join(home, "sessions")).filter((f) => f.endsWith(".jsonl"));
    expect(logs).toHaveLength(4);
    const parentLog = logs.map((f) => readFileSync(join(home, "sessions", f), "utf8")).find((t) => t.includes(PARENT))!;
    for (const start of starts) expect(parentLog).toContain(`"child":{"sessionId":"${start.agentId}","agent":"general"}`);
    expect(parentLog).not.toContain("Review module alpha.\",\"at");

    // inspect: the children are rows under the turn that started them; a child's own log inspects like any session.
    const parentId = JSON.parse(parentLog.split("\n")[0]!).id as string;
    const shown = await runShiro(["inspect", parentId], { cwd, home, env: {} });
    expect(shown.code).toBe(0);
    for (const start of starts) expect(shown.stdout).toContain(`↳ general: ${start.description} (${start.agentId})`);
    const child = await runShiro(["inspect", starts[0].agentId, "--json"], { cwd, home, env: {} });
    expect(JSON.parse(child.stdout)).toMatchObject({ id: starts[0].agentId, parent: { id: parentId, callId: starts[0].parentCallId }, calls: 1 });
    // A child is no session of the folder's: `shiro sessions` lists the parent alone, and -c goes on with it.
    const listed = await runShiro(["sessions", "--json"], { cwd, home, env: {} });
    expect(JSON.parse(listed.stdout).map((s: { id: string }) => s.id)).toEqual([parentId]);
    // export: each child's conversation goes with the parent's, named from the call that ran it.
    const exported = JSON.parse((await runShiro(["export", parentId, "--format", "json"], { cwd, home, env: {} })).stdout);
    const ran = exported.messages.flatMap((m: { role: string; results?: { child?: { sessionId: string } }[] }) => (m.results ?? []).flatMap((r) => (r.child ? [r.child.sessionId] : [])));
    expect(exported.children.map((c: { session: { id: string } }) => c.session.id)).toEqual(ran);
    expect(new Set(ran)).toEqual(new Set(starts.map((s) => s.agentId)));
    expect(exported.children.map((c: { session: { title: string } }) => c.session.title).sort()).toEqual(MODULES.map((m) => `Review module ${m}.`));
  } finally {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
});
