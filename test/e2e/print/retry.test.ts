import { afterAll, beforeAll, expect, test } from "bun:test";
import { BINARY } from "../../support/binary.ts";
import { spawnPty } from "../../support/pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// Print mode on a terminal streams the answer live; a cut stream's retry is announced on its own line
// (every retry is visible) and the answer starts over after it, whole, exactly once.
const SENTENCE = "The quick brown fox jumps over the lazy dog and then rests for a while.";
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "same-twice": () => ({ text: SENTENCE }) } });
});
afterAll(() => server.stop());

test("shiro -p on a terminal: a retried answer is announced, then shown whole once on its own lines", async () => {
  const home = tempDir("print-retry-home");
  server.inject({ cut: 8 });
  const before = server.requests.length;
  await using pty = spawnPty([BINARY, "-p", "-m", "same-twice", "hello"], {
    cwd: tempDir("print-retry"),
    env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url },
  });
  expect(await pty.exited).toBe(0);
  expect(server.requests.length - before).toBe(2);
  const lines = pty.screen().trim().split("\n");
  const notice = lines.findIndex((l) => /^! retrying model call \(attempt 2 of 6\) in 0\.\d s: the stream ended before the response completed; its answer starts over:$/.test(l));
  expect(notice).toBeGreaterThan(0);
  // Before it, the cut-off start of the answer; after it, the whole answer once and nothing else.
  expect(SENTENCE.startsWith(lines.slice(0, notice).join("\n"))).toBe(true);
  expect(lines.slice(notice + 1)).toEqual([SENTENCE]);
});
