/** What a person sees of compaction in the REPL: the notice before the compacted request, the meter, a failed /compact. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BINARY } from "../../support/binary.ts";
import { CODEWORD, readingModel, readingProject, task } from "../../support/long-job.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": readingModel("f", 4) } });
});
afterAll(() => server.stop());

test("REPL: one compaction notice per turn, the meter over 100% of the threshold, /compact that fails changes nothing", async () => {
  const home = tempDir("home");
  await using pty = spawnPty([BINARY, "--yolo", "--compact-at", "2200"], {
    cwd: readingProject("f", 4, 1_500),
    env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url, NO_COLOR: "1" },
  });
  await pty.waitFor("› ");
  await pty.type(task("Read f0.txt to f3.txt one by one."));
  const turn = pty.mark();
  pty.write(keys.enter);
  await pty.waitFor(`codeword ${CODEWORD}`, { since: turn, timeoutMs: 10_000 });
  const meter = await pty.waitFor(/context \d+% — the next request will be compacted/, { since: turn });
  expect(Number(/\d+/.exec(meter)![0])).toBeGreaterThanOrEqual(100);
  const transcript = pty.output().slice(turn);
  expect(transcript.split("context compacted: ").length).toBe(2);
  expect(transcript.indexOf("context compacted: 5 messages pruned to 4 on the wire")).toBeLessThan(transcript.indexOf("f2.txt"));

  const requests = server.requests.length;
  const compact = pty.mark();
  await pty.type("/compact");
  pty.write(keys.enter);
  // This model answers a request without tools with a call, not a summary: the summary is unusable.
  await pty.waitFor("could not compact: the model answered nothing; the transcript is unchanged", { since: compact, timeoutMs: 10_000 });
  expect(server.requests.length).toBe(requests + 1);

  // Esc while /compact waits on a slow model cancels it at once; nothing changes.
  server.inject({ delayMs: 8000, afterEventCount: 2 });
  const slow = pty.mark();
  await pty.type("/compact");
  pty.write(keys.enter);
  await pty.waitFor("writing a summary", { since: slow });
  pty.write(keys.esc);
  // "it was stopped", not the answer the model would give once its 8 s stall ends: Esc cancelled the call.
  await pty.waitFor("could not compact: it was stopped; the transcript is unchanged", { since: slow, timeoutMs: 20_000 });
  pty.write(keys.ctrlD);
  expect(await pty.exited).toBe(0);
});
