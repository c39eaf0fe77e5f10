/**
 * Per-step CPU of a job (issue 15): jobs of 1, 16, 256 and 1,024 tool calls (a 2,000-char read each,
 * default threshold) through dist/shiro against the strict local server. What one more step costs
 * must not grow with the steps before it: the figure per range is the extra CPU of the longer job
 * over the shorter one, per extra step. What still grows is sending the body (JSON, HTTP), which
 * the threshold bounds; the request path alone (compose from the kept ledger, log the call and the
 * step's events) is timed in process per step, to 4,096 steps.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { callingModel } from "../test/support/scripts.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { ms, timeRun } from "./process-figures.ts";
import { median } from "./median.ts";
import { requestPathPerStep } from "./request-path.ts";

const STEPS = [1, 16, 256, 1_024];
const LINES = 2_000;

export async function bench(): Promise<string[]> {
  ensureBinary();
  const lines: string[] = [];
  let previous: { steps: number; cpuMs: number } | undefined;
  for (const steps of STEPS) {
    const server = await startStrictServer({ defaultModel: callingModel(steps, (i) => ({ name: "read_file", arguments: { path: "log.txt", offset: ((i * 40) % LINES) + 1, limit: 40 } })) });
    const cwd = tempDir("bench-steps");
    const home = tempDir("bench-steps-home");
    try {
      writeFileSync(join(cwd, "log.txt"), Array.from({ length: LINES }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog`).join("\n"));
      const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" };
      const run = await timeRun([BINARY, "-p", "--yolo", "--max-steps", String(steps + 10), "read the log"], { cwd, env });
      if (server.requests.length !== steps + 1) throw new Error(`a ${steps}-step job made ${server.requests.length} requests`);
      const last = Buffer.byteLength(server.requests.at(-1)!.raw);
      const marginal = previous ? `; steps ${previous.steps + 1}–${steps}: ${ms((run.cpuMs - previous.cpuMs) / (steps - previous.steps))} CPU per step` : "";
      lines.push(`${steps}-step job: ${ms(run.cpuMs)} CPU, ${ms(run.wallMs)} wall, last request ${last.toLocaleString("en-US")} bytes${marginal}`);
      previous = { steps, cpuMs: run.cpuMs };
    } finally {
      await server.stop();
      rmSync(cwd, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  }
  const path = await requestPathPerStep([16, 256, 1_024, 4_096]);
  lines.push(`request path in process (compose + log, no HTTP), median per step: ${path.map((r) => `steps ${r.from}–${r.to}: ${(median(r.ms) * 1000).toFixed(0)} µs`).join(", ")}`);
  return lines;
}
