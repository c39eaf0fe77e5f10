/**
 * A context overflow teaches the model's real window, kept under $SHIRO_HOME per model and endpoint:
 * the next run, a new session, sends requests that fit it from the start. The model is named like
 * gpt-5 (taken for a 400k window) but the server's window is 16k, as a smaller model behind a proxy.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type RecordedRequest, type StrictServer } from "../../support/strict-server.ts";
import { estimateInputTokens } from "../../support/prompt-tokens.ts";
import { CODEWORD, readingModel, readingProject, task } from "../../support/long-job.ts";

const MODEL = "gpt-5-behind-proxy";
const WINDOW = 16_000;
const models = { [MODEL]: readingModel("big", 8) };
let small: StrictServer;
let roomy: StrictServer;
beforeAll(async () => {
  small = await startStrictServer({ models, windows: { [MODEL]: WINDOW } });
  roomy = await startStrictServer({ models });
});
afterAll(async () => {
  await small.stop();
  await roomy.stop();
});

const prompt = task("Read big0.txt to big7.txt one by one.");
async function job(server: StrictServer, home: string, cwd: string) {
  const before = server.requests.length;
  const r = await runShiro(["-p", "--yolo", "-m", MODEL, prompt], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
  expect(r.stdout).toBe(`read 8 files; codeword ${CODEWORD}\n`);
  expect(r.code).toBe(0);
  return { ...r, requests: server.requests.slice(before) };
}
const overflowed = (q: RecordedRequest) => q.status === 400 && estimateInputTokens(q.body) > WINDOW;

test("run 1 overflows once and is retried smaller; run 2, a new session at the same endpoint, fits the learned window at once", async () => {
  const home = tempDir("learned-home");
  const cwd = readingProject("big", 8, 12_000);

  const first = await job(small, home, cwd);
  expect(first.stderr).toContain("! the request exceeded the model's context window; compacting harder and retrying once");
  expect(first.requests.map((q) => q.status)).toEqual([200, 200, 200, 200, 400, 200, 200, 200, 200, 200]);
  const [refused, retried] = [first.requests[4]!, first.requests[5]!];
  expect(overflowed(refused)).toBe(true);
  expect(retried.raw.length).toBeLessThan(refused.raw.length);
  const saved = JSON.parse(readFileSync(join(home, "context-windows.json"), "utf8"));
  expect(saved).toEqual({ version: 1, windows: [{ endpoint: small.url, model: MODEL, tokens: expect.any(Number), learnedAt: expect.any(String) }] });
  expect(saved.windows[0].tokens).toBeLessThan(estimateInputTokens(refused.body) + 1);

  const second = await job(small, home, cwd);
  expect(second.stderr).not.toContain("exceeded the model's context window");
  expect(second.requests.map((q) => q.status)).toEqual(Array(9).fill(200));
  for (const q of second.requests) expect(estimateInputTokens(q.body)).toBeLessThanOrEqual(WINDOW);
  // The step that overflowed in run 1 went out compacted: smaller than what was refused, no bigger than its smaller retry.
  expect(second.requests[4]!.raw.length).toBeLessThan(refused.raw.length);
  expect(Math.max(...second.requests.map((q) => q.raw.length))).toBeLessThan(refused.raw.length);
});

test("the window is learned for that endpoint only: the same model at another endpoint is sent whole, and back at the first it fits", async () => {
  const home = tempDir("learned-home");
  const cwd = readingProject("big", 8, 12_000);
  expect((await job(small, home, cwd)).requests.filter((q) => q.status === 400)).toHaveLength(1);
  const elsewhere = await job(roomy, home, cwd);
  expect(elsewhere.requests.map((q) => q.status)).toEqual(Array(9).fill(200));
  expect(Math.max(...elsewhere.requests.map((q) => estimateInputTokens(q.body)))).toBeGreaterThan(WINDOW);
  expect(elsewhere.stderr).not.toContain("context compacted");
  const back = await job(small, home, cwd);
  expect(back.requests.map((q) => q.status)).toEqual(Array(9).fill(200));
  expect(Math.max(...back.requests.map((q) => estimateInputTokens(q.body)))).toBeLessThanOrEqual(WINDOW);
});

test("a corrupt context-windows.json is skipped with a one-line warning, left as it is, and the run goes on", async () => {
  const home = tempDir("learned-home");
  writeFileSync(join(home, "context-windows.json"), "{ not json");
  const r = await runShiro(["-p", "-m", "echo-model", "hello"], { cwd: tempDir("learned"), home, env: { OPENAI_BASE_URL: roomy.url } });
  expect([r.code, r.stdout]).toEqual([0, "You said: hello\n"]);
  expect(r.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^! learned context windows skipped: .*context-windows\.json is not valid JSON .*; delete it to start over$/)]);
  expect(readFileSync(join(home, "context-windows.json"), "utf8")).toBe("{ not json");
});
