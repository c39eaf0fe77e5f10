import { describe, expect, test } from "bun:test";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import { gaps, retryLines, runWithFaults } from "../../support/faulty-run.ts";

// Retries wait as long as the fault asks and no longer, measured where it shows: the arrival times of
// the requests at the strict server. Each kind of fault keeps its own backoff, so a run of different
// faults on one call costs about what each costs alone. (Before: one shared doubling schedule, so the
// mixed run below took ~9 s, gaps 1.0, 1.1, 2.1, 4.8 s; and a refused port took 6 attempts and ~17 s.)
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("retry waits, at the server", () => {
  // A reset at 0 events races the headers: then the fetch itself fails, a blink all the same.
  const RESET = /(the stream broke|the connection to http:\S+ broke): ECONNRESET: The socket connection was closed unexpectedly\.?$/;
  const blinks = [
    { name: "a connection reset mid-stream", faults: [{ reset: 4 }, { reset: 0 }], reason: RESET },
    { name: "an early EOF (the stream cut before response.completed)", faults: [{ cut: 5 }, { cut: 5 }], reason: /: the stream ended before the response completed$/ },
  ];
  for (const { name, faults, reason } of blinks)
    test.concurrent(`${name}, twice: asked again within 0.25 s, then 0.5 s; the answer printed once`, async () => {
      const r = await runWithFaults("steady now", faults);
      expect([r.code, r.stdout]).toEqual([0, "You said: steady now\n"]);
      expect(r.requests.map((q) => q.status)).toEqual([200, 200, 200]);
      // Before, 0.5–0.625 s and 1–1.25 s: a blink was waited out like a failing server.
      const [first, second] = gaps(r.requests);
      expect(first).toBeGreaterThanOrEqual(200);
      expect(first).toBeLessThan(450);
      expect(second).toBeGreaterThanOrEqual(400);
      expect(second).toBeLessThan(900);
      const lines = retryLines(r.stderr);
      expect(lines).toEqual([expect.stringMatching(/\(attempt 2 of 6\) in 0\.[23] s: /), expect.stringMatching(/\(attempt 3 of 6\) in 0\.[45] s: /)]);
      for (const line of lines) expect(line).toMatch(reason);
    });

  test.concurrent("429 (retry-after: 1), 500, a reset and an EOF on one call: each waits its own, ~2.5 s in all", async () => {
    const r = await runWithFaults("all at once", [{ status: 429, retryAfter: 1 }, { status: 500 }, { reset: 4 }, { cut: 4 }]);
    expect([r.code, r.stdout]).toEqual([0, "You said: all at once\n"]);
    expect(r.requests.map((q) => q.status)).toEqual([429, 500, 200, 200, 200]);
    const [rateLimit, server, reset, eof] = gaps(r.requests) as [number, number, number, number];
    expect(rateLimit).toBeGreaterThanOrEqual(1000); // the 1 s the server asked, honoured
    expect(rateLimit).toBeLessThan(1500);
    expect(server).toBeGreaterThanOrEqual(500); // a first 5xx: 0.5 s, not lengthened by the 429 before it
    expect(server).toBeLessThan(1100);
    expect(reset).toBeLessThan(450); // a first blink: within 0.25 s, though two faults came before
    expect(eof).toBeLessThan(900);
    expect(sum(gaps(r.requests))).toBeLessThanOrEqual(4500);
    expect(retryLines(r.stderr).map((l) => /attempt (\d) of 6\) in (\d\.\d) s/.exec(l)!.slice(1).join(" at "))).toEqual([
      "2 at 1.0",
      expect.stringMatching(/^3 at 0\.[56]$/),
      expect.stringMatching(/^4 at 0\.[23]$/),
      expect.stringMatching(/^5 at 0\.[45]$/),
    ]);
  });
});

describe("a base URL that is wrong", () => {
  test("a loopback port with nothing listening fails without retrying (no retry line), with one line naming the URL", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const url = `http://127.0.0.1:${probe.port}/v1`;
    await probe.stop(true);
    // Before: 6 attempts, each announced on stderr; now the one line below alone.
    const r = await runShiro(["-p", "hello"], { cwd: tempDir("refused"), env: { OPENAI_BASE_URL: url } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `error: could not reach ${url}: ECONNREFUSED: Unable to connect. Is the computer able to access the url? — check the network, or --base-url / OPENAI_BASE_URL`,
    ]);
  });

  test("a base URL without /v1, answered 404 by the server, says which URL was probably meant", async () => {
    const server = await startStrictServer();
    try {
      const bare = server.url.replace(/\/v1$/, "");
      const r = await runShiro(["-p", "hello"], { cwd: tempDir("no-v1"), env: { OPENAI_BASE_URL: bare } });
      expect(r.code).toBe(1);
      expect(server.requests.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(["POST /responses 404"]);
      expect(r.stderr.trimEnd().split("\n")).toEqual([`error: 404 Invalid URL (POST /responses) — did you mean ${server.url}?`]);
    } finally {
      await server.stop();
    }
  });
});
