import { readdirSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { loadAll, sessionFiles, sessionsDir } from "../../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { SessionState } from "../../../src/session/reduce-session.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer(); // the default model echoes the last user text
});
afterAll(() => server.stop());

const env = () => ({ OPENAI_BASE_URL: server.url });
const resultOf = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l)).find((l) => l.type === "result");
const texts = (s: SessionState) =>
  s.messages.flatMap((m) => (m.role === "user" ? [m.text] : m.role === "assistant" ? m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])) : []));

test("two `shiro -c -p` on one session at once: neither turn is lost; the later writer forks and says so in one line", async () => {
  const cwd = tempDir("proj");
  const home = tempDir("home");
  const first = await runShiro(["-p", "--json", "first turn"], { cwd, home, env: env() });
  expect(first.code).toBe(0);
  const originalId: string = resultOf(first.stdout).sessionId;

  // Both answers are held back long enough that each process has loaded the session before either finishes.
  server.inject({ delayMs: 1500 }, { delayMs: 1500 });
  const prompts = ["turn from A", "turn from B"];
  const runs = await Promise.all(prompts.map((p) => runShiro(["-c", "-p", p], { cwd, home, env: env() })));
  runs.forEach((r, i) => {
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`You said: ${prompts[i]}\n`);
  });

  const warned = runs.map((r) => r.stderr.split("\n").filter((l) => l.includes("is open in another shiro")));
  expect(warned.map((lines) => lines.length).sort()).toEqual([0, 1]); // exactly one process forked, and warned once
  const forkedAt = warned.findIndex((lines) => lines.length === 1);
  const keptAt = 1 - forkedAt;
  const warning = new RegExp(`^! session ${originalId} is open in another shiro \\(pid \\d+\\); continuing as ([0-9a-f-]{36}), and both are kept$`);
  const forkId = warned[forkedAt]![0]!.match(warning)?.[1];
  expect(forkId).toBeDefined();

  // Both logs reduce, and each holds its own process's whole turn after the shared first one.
  expect(sessionFiles(home).sort()).toEqual([`${originalId}.jsonl`, `${forkId}.jsonl`].sort());
  expect(readdirSync(sessionsDir(home)).filter((n) => n !== "index").length).toBe(2); // no lock or temp file left behind
  const byId = new Map((await loadAll(home)).map((s) => [s.id, texts(s)]));
  for (const [id, at] of [
    [originalId, keptAt],
    [forkId!, forkedAt],
  ] as const) {
    const said = byId.get(id)!;
    expect(said.slice(0, 2)).toEqual(["first turn", "You said: first turn"]);
    expect(said.slice(-2)).toEqual([prompts[at]!, `You said: ${prompts[at]}`]);
  }
}, 20_000);
