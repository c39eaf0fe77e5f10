/**
 * A CI runner's timeout (SIGTERM) while child agents run commands (issue 34), through the binary
 * against the strict server: every child's command and all it started are gone, none reaches the
 * canary it would write later, and every log — the parent's and each child's — reads back whole, each
 * child recorded as stopped.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { runShiro } from "../../support/run-shiro.ts";
import { firstUserText, visibleOutputs } from "../../support/scripts.ts";
import { serverSuite } from "../../support/server-suite.ts";
import type { ScriptedModel } from "../../support/turn.ts";
import { waitUntil } from "../../support/wait-until.ts";

const PARENT = "Run both checks at once.";
const SLOW = "Run both slow checks at once.";
const CHECKS = ["one", "two"];
// A sleep no other process on the machine runs: /proc finds what is left of the children's commands by
// it, and past it a command not killed would have written its canary.
const TAG = "1.519";
const command = (name: string) => `echo started > started-${name}; sleep ${TAG}; touch canary-${name}`;
// Longer than any --timeout here: only the time limit ends it.
const SLOW_TAG = "41.723";

const model: ScriptedModel = ({ input }) => {
  const first = firstUserText(input);
  if (first === PARENT || first === SLOW) {
    if (visibleOutputs(input).some((o) => o.name === "task")) return { text: "both done" };
    const prompt = (name: string) => (first === SLOW ? `Run slow check ${name}.` : `Run check ${name}.`);
    return { calls: CHECKS.map((name) => ({ name: "task", arguments: { description: `check ${name}`, prompt: prompt(name), agent: null } })) };
  }
  if (first.startsWith("Run slow check")) return visibleOutputs(input).length ? { text: "slow check ran" } : { calls: [{ name: "bash", arguments: { command: `sleep ${SLOW_TAG}` } }] };
  const name = /^Run check (\w+)\.$/.exec(first)?.[1] ?? "?";
  return visibleOutputs(input).length ? { text: `check ${name} ran` } : { calls: [{ name: "bash", arguments: { command: command(name) } }] };
};

const suite = serverSuite({ models: { "gpt-5": model } });

/** Live processes whose command line holds the tag (zombies do not count). */
function tagged(tag = TAG): number[] {
  return readdirSync("/proc")
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(tag) && !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

test.skipIf(process.platform !== "linux")("SIGTERM while two children run commands: exit 143, no process of theirs left, no canary, every log readable and each child stopped", async () => {
  const [cwd, home] = [suite.dir("task-sig"), suite.dir("task-sig-home")];
  const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: suite.server.url, NO_COLOR: "1" };
  const proc = Bun.spawn([BINARY, "-p", "--yolo", PARENT], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await waitUntil(() => CHECKS.every((name) => existsSync(join(cwd, `started-${name}`))), "both children's commands run", 20_000);
  const startedAt = Date.now();
  expect(tagged().length).toBeGreaterThanOrEqual(2);

  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(143);
  const [, stderr] = await output;
  expect(stderr).toContain("! stopped by SIGTERM; the session is saved");
  await waitUntil(() => tagged().length === 0, "no process carries the children's tag");
  await Bun.sleep(Math.max(0, startedAt + 1519 + 500 - Date.now()));
  expect(CHECKS.filter((name) => existsSync(join(cwd, `canary-${name}`)))).toEqual([]);

  // Every log reads back: the parent's names both children; each child's holds its command, stopped.
  const ids = readdirSync(join(home, "sessions")).filter((f) => f.endsWith(".jsonl")).map((f) => f.replace(/\.jsonl$/, ""));
  expect(ids).toHaveLength(3);
  const shown = await Promise.all(ids.map(async (id) => ({ id, run: await runShiro(["inspect", id, "--json"], { cwd, home, env: {} }) })));
  for (const { run } of shown) expect(run.code).toBe(0);
  const overviews = shown.map(({ run }) => JSON.parse(run.stdout));
  const children = overviews.filter((o) => o.parent);
  expect(children).toHaveLength(2);
  const parent = overviews.find((o) => !o.parent)!;
  expect(children.map((c) => c.parent.id)).toEqual([parent.id, parent.id]);
  for (const child of children) expect(child.state).toBe("interrupted");
  for (const id of children.map((c) => c.id)) {
    const log = readFileSync(join(home, "sessions", `${id}.jsonl`), "utf8");
    expect(log).toContain("Stopped: shiro received SIGTERM; the command and every process it started were killed.");
  }
});

test.skipIf(process.platform !== "linux")("--timeout while two children run commands: exit 3, both children and their commands stopped, the run's status timeout", async () => {
  const [cwd, home] = [suite.dir("task-timeout"), suite.dir("task-timeout-home")];
  const run = await runShiro(["-p", "--yolo", "--json", "--timeout", "5", SLOW], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(run.code).toBe(3);
  const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
  expect(lines.filter((l) => l.type === "agent-end")).toHaveLength(2);
  expect(lines.filter((l) => l.type === "agent-end").every((l) => l.status !== "done")).toBe(true);
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "timeout" });
  await waitUntil(() => tagged(SLOW_TAG).length === 0, "no process runs the children's sleep");
});
