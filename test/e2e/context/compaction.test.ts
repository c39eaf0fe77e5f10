/**
 * Compaction end to end: the compiled binary against the strict local API. The scripted models are
 * `sequenceModel`s that re-issue any call whose output they cannot see, so history lost on the wire
 * shows up as extra model calls, and the strict server rejects any request that breaks the API's rules.
 */
import { savedSessions } from "../../support/saved-sessions.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type RecordedRequest, type StrictServer } from "../../support/strict-server.ts";
import { firstUserText, sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { estimateInputTokens, estimateTokens } from "../../support/prompt-tokens.ts";
import { cachedShares, CODEWORD, codewordIn, LONG_JOB, longJobPrompt, readingModel, readingProject as project, task } from "../../support/long-job.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const SUMMARY_PREAMBLE = "Summary of the conversation so far";
/** A reader that, asked without tools (a summary request), writes a summary carrying the codeword; and can continue from one. */
const summarisingModel = (summary: (request: string) => string): ScriptedModel => {
  const reader = readingModel("big", 4);
  return (req) => {
    const first = firstUserText(req.input);
    if (req.tools.length === 0) return { text: summary(first) };
    if (first.startsWith(SUMMARY_PREAMBLE)) return { text: `continued from the summary; codeword ${codewordIn(first)}` };
    return reader(req);
  };
};
const goodSummary = (request: string) =>
  `## Goal\nRead big0.txt to big3.txt. The codeword is ${codewordIn(request)}.\n\n## Files touched\nnone\n\n## Decisions\nnone\n\n## Commands and outcomes\n- read_file big0.txt → ok\n\n## What remains\nanswer`;

const WINDOW = 16_000;
let server: StrictServer;
let inStream: StrictServer;
let early: StrictServer;
beforeAll(async () => {
  const models = {
    "gpt-5": readingModel("f", 4),
    "gpt-5-small": readingModel("big", 8),
    [LONG_JOB.model]: readingModel(LONG_JOB.prefix, LONG_JOB.files),
    "gpt-5-sum": summarisingModel(goodSummary),
    "gpt-5-nosum": summarisingModel(() => ""),
  };
  server = await startStrictServer({ models, windows: { "gpt-5-small": WINDOW, "gpt-5-nosum": 8_000 } });
  inStream = await startStrictServer({ models, windows: { "gpt-5-small": WINDOW }, contextErrorInStream: true });
  const reads = ["small0.txt", "small1.txt", ...Array.from({ length: 14 }, (_, i) => `big${i}.txt`)].map((path) => ({ name: "read_file", arguments: { path } }));
  early = await startStrictServer({ models: { "gpt-5-early": sequenceModel(reads, (input) => `read ${visibleOutputs(input).length} files; codeword ${codewordIn(firstUserText(input))}`) } });
});
afterAll(async () => {
  await server.stop();
  await inStream.stop();
  await early.stop();
});

const jsonLines = (stdout: string): any[] => stdout.trim().split("\n").map((l) => JSON.parse(l));
const ofType = (q: RecordedRequest, type: string): any[] => q.body.input.filter((i: any) => i.type === type);
const elided = (q: RecordedRequest) => ofType(q, "function_call_output").filter((o) => /^\[output of read_file \S+ elided: /.test(o.output)).length;
const overWindow = (q: RecordedRequest, window: number) => estimateInputTokens(q.body) > window;
/** What the newest step adds to a request: the newest response's items (reasoning, text, calls) and the outputs of its calls. */
function newestStepTokens(input: any[]): number {
  let i = input.length;
  while (i > 0 && input[i - 1].type === "function_call_output") i--;
  while (i > 0 && (input[i - 1].type === "function_call" || input[i - 1].type === "reasoning" || input[i - 1].role === "assistant")) i--;
  return i === 0 ? 0 : estimateTokens(JSON.stringify(input.slice(i)));
}

/**
 * Every request carries the task first and every call made before it, each once and paired with
 * its (maybe elided) output; a request refused for its size made no call.
 */
function expectWholeHistory(reqs: RecordedRequest[], task: string, refused: (q: RecordedRequest) => boolean = () => false) {
  let calls = 0;
  for (const q of reqs) {
    expect(firstUserText(q.body.input)).toBe(task);
    expect(ofType(q, "function_call")).toHaveLength(calls);
    expect(new Set(visibleOutputs(q.body.input).map((o) => (o.arguments as { path: string }).path)).size).toBe(calls);
    if (!refused(q)) calls++;
  }
}

describe("compaction end to end (binary ↔ strict server)", () => {
  test("a reasoning model, 4 calls, a 500-token threshold: 5 calls ended by the model, whole history and valid every time", async () => {
    const before = server.requests.length;
    const prompt = task("Read f0.txt to f3.txt one by one.");
    const r = await runShiro(["-p", "--json", "--yolo", "--compact-at", "500", prompt], {
      cwd: project("f", 4, 1_500),
      env: { OPENAI_BASE_URL: server.url },
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "done", steps: 5, text: `read 4 files; codeword ${CODEWORD}` });
    const reqs = server.requests.slice(before);
    expect(reqs.map((q) => q.status)).toEqual([200, 200, 200, 200, 200]);
    expectWholeHistory(reqs, prompt);
    // Every request over the threshold with more than one response on it drops all reasoning but the latest,
    // which stays right before the call it produced.
    expect(reqs.map((q) => ofType(q, "reasoning").length)).toEqual([0, 1, 1, 1, 1]);
    for (const q of reqs.slice(1)) expect(q.body.input[q.body.input.findIndex((i: any) => i.type === "reasoning") + 1].type).toBe("function_call");
    // One notice per turn, with a `compacted` event, said before the first compacted request goes out.
    const compacted = lines.filter((l) => l.type === "compacted");
    // The threshold is crossed at once: the first output is elided too, its call kept (5 messages, 3 unchanged).
    expect(compacted).toEqual([{ type: "compacted", messagesBefore: 5, messagesAfter: 3, tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) }]);
    expect(compacted[0].tokensAfter).toBeLessThan(compacted[0].tokensBefore);
    expect(lines.filter((l) => l.type === "notice").map((l) => l.text)).toEqual(["context compacted: 5 messages pruned to 3 on the wire"]);
    const at = lines.indexOf(compacted[0]);
    expect(lines.slice(0, at).filter((l) => l.type === "tool-call")).toHaveLength(2);
    expect(lines.slice(at).filter((l) => l.type === "tool-call")).toHaveLength(2);
  });

  for (const variant of ["HTTP 400", "in-stream error"] as const)
    test(`a history larger than the model's window (${variant}): one overflow, the window is learned, the job finishes and a resumed turn fits`, async () => {
      const api = variant === "HTTP 400" ? server : inStream;
      const home = tempDir("home");
      const cwd = project("big", 8, 12_000);
      const prompt = task("Read big0.txt to big7.txt one by one.");
      const before = api.requests.length;
      const r = await runShiro(["-p", "--yolo", "-m", "gpt-5-small", prompt], { cwd, home, env: { OPENAI_BASE_URL: api.url } });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`read 8 files; codeword ${CODEWORD}\n`);
      expect(r.stderr).toContain("! the request exceeded the model's context window; compacting harder and retrying once");
      const reqs = api.requests.slice(before);
      expect(reqs.map((q) => overWindow(q, WINDOW))).toEqual([false, false, false, false, true, false, false, false, false, false]);
      expect(reqs.map((q) => q.status)).toEqual(variant === "HTTP 400" ? [200, 200, 200, 200, 400, 200, 200, 200, 200, 200] : Array(10).fill(200));
      expect(JSON.stringify(reqs[5]!.body.input)).not.toBe(JSON.stringify(reqs[4]!.body.input)); // the retry was compacted
      expectWholeHistory(reqs, prompt, (q) => overWindow(q, WINDOW));

      // The learned window is kept with the session: the next turn is compacted up front instead of overflowing.
      const [saved] = savedSessions(home);
      expect(saved.contextWindow).toEqual({ model: "gpt-5-small", tokens: expect.any(Number) });
      const next = api.requests.length;
      const again = await runShiro(["-p", "-c", "--yolo", "-m", "gpt-5-small", "What was the codeword?"], { cwd, home, env: { OPENAI_BASE_URL: api.url } });
      expect(again.stderr).toMatch(/^· context compacted: 19 messages pruned to \d+ on the wire\n$/);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(`read 8 files; codeword ${CODEWORD}\n`);
      const resumed = api.requests.slice(next);
      expect(resumed).toHaveLength(1);
      expect(overWindow(resumed[0]!, WINDOW)).toBe(false);
      expect(elided(resumed[0]!)).toBeGreaterThan(0);
    });

  test("the long job: 40 reads of large files cross the threshold again and again; minimal calls, task kept, ≥80% cached", async () => {
    const before = server.requests.length;
    const prompt = longJobPrompt();
    const r = await runShiro(["-p", "--json", "--yolo", "-m", LONG_JOB.model, "--compact-at", String(LONG_JOB.compactAt), prompt], {
      cwd: project(LONG_JOB.prefix, LONG_JOB.files, LONG_JOB.chars),
      env: { OPENAI_BASE_URL: server.url },
    });
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ status: "done", steps: 41, text: `read 40 files; codeword ${CODEWORD}` });
    const reqs = server.requests.slice(before);
    expect(reqs).toHaveLength(41);
    expect(reqs.every((q) => q.status === 200)).toBe(true);
    expectWholeHistory(reqs, prompt);
    // The threshold held (plus the newest step) and the cut moved a few times, never back, each time by
    // about half the threshold's worth of outputs.
    for (const q of reqs) expect(estimateInputTokens(q.body)).toBeLessThanOrEqual(LONG_JOB.compactAt + newestStepTokens(q.body.input) + 10);
    const cuts = reqs.map(elided);
    expect(cuts).toEqual([...cuts].sort((a, b) => a - b));
    const moves = cuts.filter((c, i) => i > 0 && c !== cuts[i - 1]);
    expect(moves.length).toBeGreaterThanOrEqual(3);
    expect(moves.length).toBeLessThanOrEqual(6);
    const shares = cachedShares(reqs);
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    expect(mean).toBeGreaterThanOrEqual(0.8);
  });

  test("--compact-at holds from the first calls: a job whose outputs cross it from the third call on never sends more than the threshold plus one step", async () => {
    // Two small reads, then 14 reads of 8,000 chars (~2,000 tokens each) against 4,000 tokens, of which
    // the instructions and tools take ~1,900: before, nothing could be elided until 24 calls existed.
    const cwd = tempDir("compact-early");
    writeFileSync(join(cwd, "small0.txt"), "tiny\n");
    writeFileSync(join(cwd, "small1.txt"), "tiny too\n");
    for (let i = 0; i < 14; i++) writeFileSync(join(cwd, `big${i}.txt`), `big${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(10)}\n`.repeat(18).slice(0, 8_000));
    const before = early.requests.length;
    const prompt = task("Read the files one by one.");
    const r = await runShiro(["-p", "--yolo", "-m", "gpt-5-early", "--compact-at", "4000", prompt], { cwd, env: { OPENAI_BASE_URL: early.url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`read 16 files; codeword ${CODEWORD}\n`);
    const reqs = early.requests.slice(before);
    expect(reqs).toHaveLength(17);
    expectWholeHistory(reqs, prompt);
    expect(reqs.map((q) => (q.body.input.filter((i: any) => i.type === "function_call_output").at(-1)?.output ?? "").length > 4_000)).toEqual([false, false, false, ...Array(14).fill(true)]);
    for (const q of reqs) expect(estimateInputTokens(q.body)).toBeLessThanOrEqual(4_000 + newestStepTokens(q.body.input) + 10);
    expect(elided(reqs.at(-1)!)).toBeGreaterThan(10);
  });

  test("when even dropping old steps cannot fit the window, it continues from a summary automatically", async () => {
    const home = tempDir("home");
    writeFileSync(join(home, "config.json"), JSON.stringify({ contextWindow: 8_000 }));
    const before = server.requests.length;
    const prompt = task("Read big0.txt to big3.txt one by one.");
    const r = await runShiro(["-p", "--yolo", "-m", "gpt-5-sum", prompt], { cwd: project("big", 4, 12_000), home, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`continued from the summary; codeword ${CODEWORD}\n`);
    expect(r.stderr).toMatch(/! the conversation did not fit the context window; continuing from a [\d,]+-char summary/);
    // The notice counts what the summary replaced (it once said "0 messages pruned to 0").
    expect(r.stderr).toMatch(/· context compacted: [1-9]\d* messages (replaced by a summary|pruned to \d+ on the wire)\n/);
    const reqs = server.requests.slice(before);
    expect(reqs.map((q) => q.body.tools.length > 0 ? firstUserText(q.body.input).slice(0, 20) : "summary request")).toEqual([
      prompt.slice(0, 20), prompt.slice(0, 20), "summary request", SUMMARY_PREAMBLE.slice(0, 20),
    ]);
    expect(firstUserText(reqs[2]!.body.input)).toContain(CODEWORD);
    expect(estimateInputTokens(reqs[3]!.body)).toBeLessThan(8_000);
    const [session] = savedSessions(home);
    expect(session.messages.filter((m: any) => m.role === "compaction")).toHaveLength(1);
    expect(session.messages.filter((m: any) => m.role === "tool")).toHaveLength(2); // the record keeps everything
  });

  test("when the summary fails too, the request goes anyway; the overflow is retried harder once, then reported", async () => {
    const home = tempDir("home");
    writeFileSync(join(home, "config.json"), JSON.stringify({ contextWindow: 8_000 }));
    const before = server.requests.length;
    const r = await runShiro(["-p", "--yolo", "-m", "gpt-5-nosum", task("Read big0.txt to big3.txt one by one.")], { cwd: project("big", 4, 12_000), home, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("! the conversation does not fit the context window and summarising it failed; sending it anyway");
    expect(r.stderr).toContain("! the request exceeded the model's context window; compacting harder and retrying once");
    expect(r.stderr).toMatch(/error: .*context/i);
    const reqs = server.requests.slice(before);
    expect(reqs.filter((q) => q.status === 400)).toHaveLength(2); // the first overflow and its one retry, no loop
    expect(reqs.filter((q) => q.body.tools.length === 0)).toHaveLength(1); // a failed summary is not asked for again this turn
    expect(r.stderr.split("summarising it failed").length).toBe(2);
    expect(reqs.at(-1)!.status).toBe(400);
  });
});
