import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BINARY } from "../../support/binary.ts";
import { spawnPty } from "../../support/pty.ts";
import { callsIn, loadAll, resultsOf } from "../../support/session-runs.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { echoModel, sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type Fault, type StrictServer } from "../../support/strict-server.ts";
import { gaps, retryLines, runWithFaults } from "../../support/faulty-run.ts";

// The model connection as an unattended run meets it: each scripted fault of the strict server,
// asserted by what crossed the wire (requests, the gaps between them), the exit code, stdout and stderr.
// Each faulty run has a server of its own, so the runs (mostly waiting out backoffs) go side by side.
const models = { "echo-model": echoModel, "sleeper": sequenceModel([{ name: "bash", arguments: { command: "sleep 30" } }], "never reached") };
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models });
});
afterAll(() => server.stop());

const shiro = (prompt: string, faults: Fault[], args: string[] = [], home?: string) => runWithFaults(prompt, faults, { args, home, server: { models } });

describe("the model connection, unattended", () => {
  test.concurrent("an API that accepts the connection and never answers is abandoned after --idle-timeout and retried", async () => {
    const r = await shiro("are you there", [{ hang: true }], ["--idle-timeout", "1"]);
    expect([r.code, r.stdout]).toEqual([0, "You said: are you there\n"]);
    expect(r.requests.length).toBe(2);
    // The idle clock starts when the request is sent, the gap when it arrives: allow its transit (≤ 100 ms under load).
    // A silence already waited out is asked again as a dropped connection is: within 0.25 s.
    expect(gaps(r.requests)[0]).toBeGreaterThanOrEqual(1000 + 200 - 100);
    expect(gaps(r.requests)[0]).toBeLessThan(1000 + 250 + 400);
    expect(retryLines(r.stderr)).toEqual([expect.stringMatching(/^! retrying model call \(attempt 2 of 6\) in 0\.[23] s: no data from the API for 1 s \(--idle-timeout\)$/)]);
  });

  test.concurrent("a stream that stalls half-way is abandoned after --idle-timeout and retried; the answer is printed once", async () => {
    const r = await shiro("keep going", [{ hang: true, afterEventCount: 5 }], ["--idle-timeout", "1"]);
    expect([r.code, r.stdout]).toEqual([0, "You said: keep going\n"]);
    expect(r.requests.length).toBe(2);
    expect(retryLines(r.stderr)).toHaveLength(1);
    expect(retryLines(r.stderr)[0]).toContain("no data from the API for 1 s");
  });

  test.concurrent("an API silent on every attempt ends at --timeout: every retry shown, exit 3, the session saved", async () => {
    const hangs = Array.from({ length: 6 }, () => ({ hang: true as const }));
    const r = await shiro("hello?", hangs, ["--idle-timeout", "1", "--timeout", "4"]);
    expect(r.code).toBe(3); // the limit's code: had it run its retries out, exit 1
    expect(r.stdout).toBe("");
    expect(retryLines(r.stderr).length).toBeGreaterThanOrEqual(2);
    expect(r.stderr).toContain("stopped at --timeout");
    const [session] = await loadAll(r.home);
    expect(session!.messages[0]).toEqual({ role: "user", text: "hello?" });
  });

  test.concurrent("429 with retry-after: 2, then success: the second request waits the 2 s the server asked", async () => {
    const r = await shiro("patience", [{ status: 429, retryAfter: 2 }]);
    expect([r.code, r.stdout]).toEqual([0, "You said: patience\n"]);
    expect(r.requests.map((q) => q.status)).toEqual([429, 200]);
    expect(gaps(r.requests)[0]).toBeGreaterThanOrEqual(2000);
    expect(gaps(r.requests)[0]).toBeLessThan(2000 + 500); // no longer than asked: no jitter on top
    expect(retryLines(r.stderr)).toEqual([expect.stringMatching(/^! retrying model call \(attempt 2 of 6\) in 2\.0 s: 429 Rate limit reached/)]);
  });

  test.concurrent("five 500s, then success: six requests, each wait at least the doubling backoff", async () => {
    const r = await shiro("persist", Array.from({ length: 5 }, () => ({ status: 500 })));
    expect([r.code, r.stdout]).toEqual([0, "You said: persist\n"]);
    expect(r.requests.map((q) => q.status)).toEqual([500, 500, 500, 500, 500, 200]);
    // 0.5 s doubling, up to 25% jitter on top (and a little transit).
    gaps(r.requests).forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(gap).toBeLessThan(500 * 2 ** i * 1.25 + 400);
    });
    expect(retryLines(r.stderr).map((l) => /attempt (\d) of 6/.exec(l)![1])).toEqual(["2", "3", "4", "5", "6"]);
  }, 45_000);

  test.concurrent("429 insufficient_quota is not retried: one request, one clear line, exit 1", async () => {
    const r = await shiro("pay up", [{ status: 429, quota: true }]);
    expect(r.code).toBe(1);
    expect(r.requests.length).toBe(1);
    expect(r.stdout).toBe("");
    expect(retryLines(r.stderr)).toEqual([]);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^error: 429 You exceeded your current quota, please check your plan and billing details\./)]);
  });

  test.concurrent("a retryable error event inside the stream is retried and the run finishes", async () => {
    const r = await shiro("glitch", [{ errorEvent: true, afterEventCount: 4 }]);
    expect([r.code, r.stdout]).toEqual([0, "You said: glitch\n"]);
    expect(r.requests.length).toBe(2);
    expect(retryLines(r.stderr)).toEqual([expect.stringContaining("An error occurred while processing your request.")]);
  });

  test.concurrent("--json shows each retry as a retry event with its attempt, delay and reason", async () => {
    const r = await shiro("in json", [{ status: 503, retryAfterMs: 300 }], ["--json"]);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === "retry")).toEqual([{ type: "retry", attempt: 2, maxAttempts: 6, delayMs: 300, reason: "503 The server had an error while processing your request. Sorry about that!" }]);
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "done", text: "You said: in json" });
    expect(gaps(r.requests)[0]).toBeGreaterThanOrEqual(300);
  });
});

describe("answers that are not whole", () => {
  test.concurrent("response.incomplete after the text: the text on stdout and in the session, the reason on stderr, exit 1", async () => {
    const r = await shiro("write a lot", [{ incomplete: "max_output_tokens" }]);
    expect(r.code).toBe(1);
    expect(r.requests.length).toBe(1);
    expect(r.stdout).toBe("You said: write a lot\n");
    expect(r.stderr).toContain("error: the response stopped before it was complete (max_output_tokens: it reached the output token limit)");
    const [session] = await loadAll(r.home);
    expect(session!.messages[1]).toMatchObject({ role: "assistant", parts: [{ type: "text", text: "You said: write a lot" }], incomplete: "max_output_tokens" });
  });

  test.concurrent("--json: an incomplete answer's result says so and carries the text", async () => {
    const r = await shiro("filtered", [{ incomplete: "content_filter" }], ["--json"]);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(r.code).toBe(1);
    expect(result).toMatchObject({ type: "result", status: "incomplete", text: "You said: filtered" });
  });

  test.concurrent("a response holding only an item type shiro does not use is exit 1 naming it, never a silent empty answer", async () => {
    const search = { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "news" } };
    const r = await shiro("search the web", [{ onlyItems: [search] }]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error: the model answered with no text and no tool call (the response held only: web_search_call)");
  });
});

describe("the limits' flags", () => {
  test("a bad --idle-timeout or --timeout is a one-line usage error (exit 2) naming the flag, before any request", async () => {
    const before = server.requests.length;
    for (const [flag, value] of [["--idle-timeout", "soon"], ["--timeout", "0"], ["--timeout", "-5"]]) {
      const r = await runShiro(["-p", flag!, value!, "hi"], { cwd: tempDir("flags"), env: { OPENAI_BASE_URL: server.url } });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(flag!);
    }
    expect(server.requests.length).toBe(before);
  });

  test("--timeout in the interactive session is a usage error that says to add -p", async () => {
    const home = tempDir("pty-home");
    await using pty = spawnPty([BINARY, "--timeout", "5"], { cwd: tempDir("pty"), env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url } });
    expect(await pty.exited).toBe(2);
    expect(pty.screen()).toContain("--timeout limits a print-mode run: add -p");
  });

  test.concurrent("idleTimeout in config.json is used; a wrong type is named", async () => {
    const home = tempDir("cfg-home");
    await Bun.write(`${home}/config.json`, JSON.stringify({ idleTimeout: 1 }));
    const r = await shiro("from config", [{ hang: true }], [], home);
    expect([r.code, r.stdout]).toEqual([0, "You said: from config\n"]);
    expect(retryLines(r.stderr)[0]).toContain("no data from the API for 1 s");
    await Bun.write(`${home}/config.json`, JSON.stringify({ idleTimeout: "long" }));
    const bad = await runShiro(["-p", "hi"], { cwd: tempDir("cfg"), home, env: { OPENAI_BASE_URL: server.url } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("idleTimeout");
  });
});

test("--timeout also bounds the wait for a stdin that never ends: exit 3, nothing sent", async () => {
  const before = server.requests.length;
  let ended = 0;
  const r = await runShiro(["-p", "-m", "echo-model", "--timeout", "1.5", "why did this fail?"], {
    cwd: tempDir("wire"),
    env: { OPENAI_BASE_URL: server.url },
    stdin: async (stdin, run) => {
      stdin.write("partial log\n");
      ended = await run.waitFor(() => run.stderr().includes("--timeout"), 5000);
      stdin.end();
    },
  });
  expect(r.code).toBe(3);
  expect(ended).toBeGreaterThanOrEqual(1500);
  expect(r.stderr).toContain("stopped at --timeout while waiting for stdin");
  expect(server.requests.length).toBe(before);
});

test("--timeout during a bash command kills it, saves the session with the reason in the result, exit 3", async () => {
  const home = tempDir("timeout-home");
  const cwd = tempDir("timeout");
  // (`sleep 30`: had the command not been killed, the run would not have ended at its --timeout with exit 3.)
  const r = await runShiro(["-p", "--yolo", "-m", "sleeper", "--timeout", "2", "nap"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
  expect(r.code).toBe(3);
  expect(r.stderr).toContain("! stopped at --timeout; the job is not finished and the session is saved");
  const [session] = await loadAll(home);
  const [call] = callsIn(session!);
  expect(resultsOf(session!).get(call!.callId)).toEndWith("Stopped: the run reached its --timeout; the command and every process it started were killed.");
});
