/**
 * Issue 21 through the binary: a run of a long session leaves the state of its log's lines beside
 * it (`<id>.state`), and the next `-c` takes the history from it instead of parsing the log. What
 * it sends is byte for byte what a resume without the file sends — and a state that does not hold
 * for the log (the log changed since, the file damaged) is not used.
 */
import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "bun:jsc";
import type { SessionState } from "../../../src/session/reduce-session.ts";
import { hashOf } from "../../../src/store/log-hash.ts";
import { writeLongSession } from "../../support/long-session.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer } from "../../support/strict-server.ts";

const server = await startStrictServer();
const home = tempDir("state-home");
const cwd = tempDir("state-proj");
const left = tempDir("state-left");
afterAll(async () => {
  await server.stop();
  for (const dir of [home, cwd, left]) rmSync(dir, { recursive: true, force: true });
});

const sessions = join(home, "sessions");
// 300 turns: a 0.7 MB log, long enough for a snapshot.
const id = await writeLongSession(home, cwd, 300);
const state = join(sessions, `${id}.state`);
const log = join(sessions, `${id}.jsonl`);

/** `-c -p "go on"`: the first request's bytes. */
async function goOn(): Promise<string> {
  const before = server.requests.length;
  const r = await runShiro(["-c", "-p", "go on"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
  expect(r.stderr).not.toContain("internal error");
  expect(r.code).toBe(0);
  return server.requests[before]!.raw;
}
/** The session as the first run left it, with the state file as given (none: no file), and without its wire measures: the history sent is the state's. */
function restore(file?: Uint8Array) {
  rmSync(sessions, { recursive: true, force: true });
  cpSync(left, sessions, { recursive: true });
  rmSync(state, { force: true });
  rmSync(join(sessions, `${id}.measures`), { force: true });
  if (file) writeFileSync(state, file);
}

test("a long session's run leaves its state; the next resume takes it, sends what reading the log sends, and passes over one that does not hold", async () => {
  expect(existsSync(state)).toBe(false);
  await goOn();
  expect(existsSync(state)).toBe(true);
  cpSync(sessions, left, { recursive: true });
  const kept = readFileSync(state);

  restore();
  const withoutFile = await goOn();
  restore(kept);
  expect(await goOn()).toBe(withoutFile);

  // The state in the file told otherwise (its check made to match): only its use can put the change on the wire.
  const cut = kept.indexOf(0x0a);
  const told = deserialize(kept.subarray(cut + 1)) as SessionState;
  const first = told.messages.find((m) => m.role === "user")!;
  if (first.role === "user") first.text = first.text.replace("step 0:", "STEP 0:");
  const body = serialize(told, { binaryType: "nodebuffer" });
  const header = { ...JSON.parse(kept.subarray(0, cut).toString()), check: hashOf(body) };
  const forged = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]);
  restore(forged);
  expect(await goOn()).toBe(withoutFile.replace("step 0:", "STEP 0:"));

  // Not used: the log changed in the lines it stands for, or the file damaged.
  restore(forged);
  writeFileSync(log, readFileSync(log, "utf8").replace("step 1:", "step 1;"));
  expect(await goOn()).toBe(withoutFile.replace("step 1:", "step 1;"));
  restore(Uint8Array.from(forged, (b, i) => (i === forged.length - 9 ? b ^ 4 : b)));
  expect(await goOn()).toBe(withoutFile);
}, 60_000);
