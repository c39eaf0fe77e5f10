import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { firstUserText, sequenceModel } from "../../support/scripts.ts";
import type { ScriptedModel } from "../../support/turn.ts";
import { callsIn, loadAll, outputIds, requestsOf, resultsOf } from "../../support/session-runs.ts";
import { runStateOf } from "../../../src/session/run-state.ts";
import { inspectedBodies } from "../../support/inspected-bodies.ts";

/**
 * `kill -9` at random moments of a running job, then `shiro -c`. Each bash step appends its marker
 * to log.txt and then lingers, so many kills land while a tool is running.
 */
const MARKERS = ["s1", "s2", "s3"];
const bashStep = (marker: string) => ({ name: "bash", arguments: { command: `echo ${marker} >> log.txt; sleep 0.25` } });
const steps = sequenceModel(
  [
    bashStep("s1"),
    { name: "write_file", arguments: { path: "a.txt", content: "a\n" } },
    bashStep("s2"),
    { name: "write_file", arguments: { path: "b.txt", content: "b\n" } },
    bashStep("s3"),
  ],
  "all done",
);
/** Kill hooks by task: fired when that job's n-th request reaches the server (results just sent). */
const killAtRequest = new Map<string, { n: number; kill: () => void }>();
const job: ScriptedModel = (req) => {
  const hook = killAtRequest.get(firstUserText(req.input));
  if (hook && --hook.n === 0) hook.kill();
  return steps(req);
};

const TRIALS = 24;
const PARALLEL = 8;
/** Roughly how long the job takes uninterrupted; random kills fall anywhere inside it. */
const JOB_MS = 1_800;

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": job }, paceMs: 8 });
});
afterAll(() => server.stop());

const env = (home: string) => ({
  PATH: process.env.PATH!,
  HOME: home,
  SHIRO_HOME: home,
  OPENAI_API_KEY: "test-key-not-a-secret",
  OPENAI_BASE_URL: server.url,
  NO_COLOR: "1",
});
const logLines = (cwd: string) => (existsSync(join(cwd, "log.txt")) ? readFileSync(join(cwd, "log.txt"), "utf8").split("\n").filter(Boolean) : []);

type Outcome = { saved: boolean; repaired: number };

/**
 * Kill moments, in turn: when a marker appears (a tool is running), when the server receives the
 * job's 2nd–6th request (tool results just sent), or at a random time.
 */
async function trial(n: number): Promise<Outcome> {
  const home = tempDir("killhome");
  const cwd = tempDir("killproj");
  const task = `job ${n}`;
  const proc = Bun.spawn([BINARY, "-p", "--yolo", task], { cwd, env: env(home), stdout: "ignore", stderr: "ignore" });
  if (n % 3 === 0) {
    const wanted = 1 + Math.floor(Math.random() * MARKERS.length);
    const deadline = Date.now() + 5_000;
    while (logLines(cwd).length < wanted && proc.exitCode === null && Date.now() < deadline) await Bun.sleep(5);
  } else if (n % 3 === 1) {
    const killed = new Promise<void>((resolve) => killAtRequest.set(task, { n: 2 + Math.floor(Math.random() * 5), kill: () => resolve(proc.kill("SIGKILL")) }));
    await Promise.race([killed, proc.exited]);
  } else {
    await Bun.sleep(Math.random() * JOB_MS);
  }
  proc.kill("SIGKILL");
  await proc.exited;

  // Whatever the moment, the file (if written yet) parses and holds every result the server was sent.
  const seen = outputIds(requestsOf(server.requests, task));
  const sessions = await loadAll(home);
  if (sessions.length === 0) {
    expect(seen.size).toBe(0);
    return { saved: false, repaired: 0 };
  }
  expect(sessions).toHaveLength(1);
  const killed = sessions[0]!;
  const results = resultsOf(killed);
  for (const id of seen) expect(results.has(id)).toBe(true);
  const pending = callsIn(killed).filter((c) => !results.has(c.callId)).map((c) => c.callId);

  const before = requestsOf(server.requests, task).length;
  // Listed once its first line is on disk (a kill in the few ms before that entry is written leaves it to -r),
  // with its state as the log now stands, and -c continues it whatever the kill cut short.
  const listed: { id: string; state: string }[] = JSON.parse((await runShiro(["sessions", "--json"], { cwd, home, env: env(home) })).stdout);
  expect(listed.map((s) => s.id).filter((id) => id !== killed.id)).toEqual([]);
  if (listed.length) expect(listed[0]!.state).toBe(runStateOf(killed));
  const resumed = await runShiro([...(listed.length ? ["-c"] : ["-r", killed.id]), "-p", "--yolo"], { cwd, home, stdin: "carry on", env: env(home) });
  expect([resumed.code, resumed.stdout]).toEqual([0, "all done\n"]);
  if (pending.length) expect(resumed.stderr).toContain(`! ${pending.length} tool call(s) were interrupted when this session last ran`);
  const firstResumed = requestsOf(server.requests, task)[before]!;
  for (const callId of pending) {
    const output = firstResumed.body.input.find((i: any) => i.type === "function_call_output" && i.call_id === callId);
    expect(output.output).toContain("interrupted");
  }

  // Nothing ran twice: each step was called once in the whole session, and its marker is in the log at most once.
  const [final] = await loadAll(home);
  expect(final!.id).toBe(killed.id);
  const commands = callsIn(final!).map((c) => c.arguments);
  const lines = logLines(cwd);
  for (const marker of MARKERS) {
    expect(commands.filter((a) => a.includes(`echo ${marker} `))).toHaveLength(1);
    expect(lines.filter((l) => l === marker).length).toBeLessThanOrEqual(1);
  }
  // A step that finished normally left exactly one line.
  const finalResults = resultsOf(final!);
  for (const call of callsIn(final!).filter((c) => c.name === "bash")) {
    const marker = JSON.parse(call.arguments).command.split(" ")[1];
    if (!finalResults.get(call.callId)!.includes("interrupted")) expect(lines.filter((l) => l === marker)).toHaveLength(1);
  }

  // Every request the server received, before and after the kill, is rebuilt by inspect byte for
  // byte; at most one more call was recorded but never reached it (killed between save and send).
  const sent = requestsOf(server.requests, task).map((r) => r.raw);
  const rebuilt = await inspectedBodies(final!.id, { cwd, home, env: env(home) });
  expect(rebuilt.filter((line) => sent.includes(line))).toEqual(sent);
  expect(rebuilt.length - sent.length).toBeLessThanOrEqual(1);
  return { saved: true, repaired: pending.length };
}

test(`kill -9 at random moments (${TRIALS} trials): the session always parses, keeps every sent result, resumes without re-running`, async () => {
  const started = Date.now();
  const outcomes: Outcome[] = [];
  for (let first = 0; first < TRIALS; first += PARALLEL) {
    const wave = Array.from({ length: Math.min(PARALLEL, TRIALS - first) }, (_, i) => trial(first + i));
    outcomes.push(...(await Promise.all(wave)));
  }
  const saved = outcomes.filter((o) => o.saved).length;
  const repaired = outcomes.filter((o) => o.repaired > 0).length;
  console.log(`kill -9: ${TRIALS} trials in ${Date.now() - started} ms; ${saved} had a session file, ${repaired} resumed an interrupted call`);
  expect(outcomes).toHaveLength(TRIALS);
  // The marker-timed kills land mid-tool, so interrupted calls were really exercised.
  expect(repaired).toBeGreaterThan(0);
}, 120_000);
