/**
 * A session's listed cost through the binary: summed once and then per message added (a long
 * session's listing is not summed over its whole history at every turn, nor before a resume's
 * first request), yet always what pricing every response of the log at the prices in force gives —
 * after a resume, and after the prices changed between runs.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configurePrices } from "../../../src/pricing/cost.ts";
import { sessionTotals } from "../../../src/pricing/session-totals.ts";
import { loadAll } from "../../support/session-runs.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const reader = sequenceModel(Array.from({ length: 3 }, (_, i) => ({ name: "read_file", arguments: { path: `f${i}.txt` } })), "read them");
let server: StrictServer;
const home = tempDir("totals-home");
const cwd = tempDir("totals-proj");
beforeAll(async () => {
  server = await startStrictServer({ models: { metered: reader } });
});
afterAll(async () => {
  await server.stop();
  for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
});

const priced = (output: number) => ({ metered: { input: 0.5, cachedInput: 0.05, output } });
const run = async (args: string[]) => {
  const r = await runShiro(["-p", "--yolo", "-m", "metered", ...args], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
  expect(r.code).toBe(0);
};
/** The listing's cost, and what pricing every response of the log at `prices` gives. */
async function listedAndSummed(prices: ReturnType<typeof priced>) {
  const listed = JSON.parse((await runShiro(["sessions", "--json"], { cwd, home })).stdout) as { costUsd: number | null; tokens: { output: number } }[];
  const [state] = await loadAll(home);
  configurePrices(prices);
  const summed = sessionTotals(state!.messages);
  configurePrices({});
  return { listed: listed.map((s) => [s.costUsd, s.tokens.output]), summed: [[summed.costUsd ?? null, summed.usage.outputTokens]] };
}

test("a resumed session's listed cost is every response of its log priced, again after each run, and under new prices once they change", async () => {
  writeFileSync(join(home, "config.json"), JSON.stringify({ pricing: priced(10) }));
  await run(["read the files"]);
  await run(["-c", "and again"]);
  await run(["-c", "once more"]);
  const before = await listedAndSummed(priced(10));
  expect(before.listed).toEqual(before.summed);
  // The prices change between runs: what the listing held was summed at the old ones, and is summed again.
  writeFileSync(join(home, "config.json"), JSON.stringify({ pricing: priced(1_000) }));
  await run(["-c", "and a last time"]);
  const after = await listedAndSummed(priced(1_000));
  expect(after.listed).toEqual(after.summed);
  expect(after.listed[0]![0]).toBeGreaterThan((before.listed[0]![0] as number) * 5);
});
