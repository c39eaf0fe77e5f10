/**
 * `--max-cost` through the binary: checked before every model call against what the run has cost so
 * far (each response priced by config.json's `pricing`), it stops the run before the next call once
 * the limit is reached (exit 3, `max-cost`); an unpriced model is refused before any call.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadAll } from "../../support/session-runs.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// A model that never finishes: ten reads, one per call, so only a limit ends the run.
const reader = sequenceModel(Array.from({ length: 10 }, (_, i) => ({ name: "read_file", arguments: { path: `f${i}.txt` } })), "never reached");
// USD per 1M tokens: a dollar per output token, input free, so each call's cost is its output tokens.
const PRICE = { input: 0, cachedInput: 0, output: 1_000_000 };

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { metered: reader, unpriced: reader } });
});
afterAll(() => server.stop());

async function run(maxCost: string, extra: string[] = []) {
  const home = tempDir("cost-home");
  writeFileSync(join(home, "config.json"), JSON.stringify({ pricing: { metered: PRICE } }));
  const before = server.requests.length;
  const r = await runShiro(["-p", "-m", "metered", "--max-cost", maxCost, ...extra, "read everything"], { cwd: tempDir("cost"), home, env: { OPENAI_BASE_URL: server.url } });
  const [session] = await loadAll(home);
  // What each call cost, in order, from the usage the API reported (as saved in the session).
  const costs = (session?.messages ?? []).flatMap((m) => (m.role === "assistant" && m.usage ? [m.usage.outputTokens] : []));
  return { ...r, calls: server.requests.length - before, costs };
}

const cumulative = (costs: number[]) => costs.map((_, i) => costs.slice(0, i + 1).reduce((a, b) => a + b, 0));

describe("--max-cost", () => {
  test("the run stops before the call after the one that reached the limit: every earlier total was under it", async () => {
    const first = await run("1000", ["--max-steps", "3"]); // a limit never reached: what three calls cost
    expect(first.code).toBe(3);
    const totals = cumulative(first.costs);
    const limit = (totals[0]! + totals[1]!) / 2; // reached by the second call, not the first

    const r = await run(String(limit), ["--json"]);
    expect(r.code).toBe(3);
    expect(r.calls).toBe(2);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({ type: "result", status: "max-cost", steps: 2 });
    expect(result.costUsd).toBeCloseTo(totals[1]!, 9);
    expect(cumulative(r.costs)[0]!).toBeLessThan(limit);
    expect(result.costUsd).toBeGreaterThanOrEqual(limit);
  });

  test("without --json stderr says where it stopped and how to go on; a limit below one call's cost still lets the first call run", async () => {
    const r = await run("0.000001");
    expect([r.code, r.calls, r.stdout]).toEqual([3, 1, ""]);
    expect(r.stderr).toMatch(/\n! stopped at --max-cost after 1 model call costing \$\d+\.\d{4}; the job is not finished and the session is saved \(continue it with shiro -c, or raise --max-cost\)\n$/);
  });

  test("a model without a price is refused before any call, with the way out; a price in config makes it priced", async () => {
    const before = server.requests.length;
    const r = await runShiro(["-p", "-m", "unpriced", "--max-cost", "1", "hi"], { cwd: tempDir("cost"), env: { OPENAI_BASE_URL: server.url } });
    expect([r.code, server.requests.length]).toEqual([2, before]);
    expect(r.stderr).toBe(
      'shiro: --max-cost needs a priced model, and unpriced has no known price: add it to config.json as "pricing": {"unpriced": {"input": 1.25, "cachedInput": 0.125, "output": 10}} (USD per 1M tokens)\n',
    );
    const priced = await run("1000", ["--max-steps", "1", "--json"]);
    expect(JSON.parse(priced.stdout.trim().split("\n").at(-1)!).costUsd).toBe(priced.costs[0]!);
  });
});
