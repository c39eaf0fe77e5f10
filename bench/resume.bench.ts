/**
 * Resuming a long session (issues 15 and 21): the time from `shiro -c -p` starting to the strict
 * server receiving its first request, at 100 / 1,000 / 5,000 turns, beside a new session's (`shiro
 * -p` in an empty home) — aim: within 1.5× a new session at 1,000 turns (a 2.5 MB log), ≤ 150 ms at
 * 5,000. It reads the folder's index, opens and reduces the log, and composes the first request
 * over the whole history (at 5,000 turns its notes alone overflow gpt-5's window, so the first
 * request is the summary it asks for) — with the wire measures the last run left beside the log
 * (`<id>.measures`, as any run that resumed the session leaves them), and without.
 */
import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { writeLongSession } from "../test/support/long-session.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { median } from "./median.ts";
import { ms } from "./process-figures.ts";

const RUNS = 9;

export async function bench(): Promise<string[]> {
  ensureBinary();
  const server = await startStrictServer();
  const lines: string[] = [];
  const env = (home: string) => ({ PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" });
  /** Process start to the first request the server receives. */
  const firstRequestOf = async (args: string[], cwd: string, home: string) => {
    const before = server.requests.length;
    const start = performance.now();
    const proc = Bun.spawn([BINARY, ...args], { cwd, stdin: "ignore", stdout: "ignore", stderr: "pipe", env: env(home) });
    const code = await proc.exited;
    if (code !== 0) throw new Error(`shiro ${args.join(" ")} exited ${code}: ${await new Response(proc.stderr).text()}`);
    const request = server.requests[before];
    if (!request || request.status !== 200) throw new Error(`the request was refused: ${request?.raw.slice(0, 300)}`);
    return { ms: request.at - start, cpuMs: Number(proc.resourceUsage()!.cpuTime.total) / 1000 };
  };
  /** A new session's first request (`shiro -p` in an empty home). */
  const newSession = async () => {
    const home = tempDir("bench-new-home");
    const cwd = tempDir("bench-new-cwd");
    try {
      return (await firstRequestOf(["-p", "hello"], cwd, home)).ms;
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  };
  try {
    const fresh: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      const at = await newSession();
      if (run > 0) fresh.push(at); // the first: a warm-up
    }
    lines.push(`-p, a new session: first request after ${ms(median(fresh))} (median of ${RUNS})`);
    for (const turns of [100, 1_000, 5_000]) {
      const home = tempDir("bench-resume-home");
      const cwd = tempDir("bench-resume-cwd");
      const pristine = tempDir("bench-resume-pristine");
      try {
        const id = await writeLongSession(home, cwd, turns);
        // Each run continues the same session: a run appends to the log (and may summarise it).
        const sessions = join(home, "sessions");
        cpSync(sessions, pristine, { recursive: true });
        const size = statSync(join(sessions, `${id}.jsonl`)).size;
        // What a run leaves beside the log for the next resume: its history's wire measures.
        await firstRequestOf(["-c", "-p", "go on"], cwd, home);
        const measures = join(sessions, `${id}.measures`);
        const left = existsSync(measures) ? readFileSync(measures) : undefined;
        // Each resume beside a new session run just before it, so that the ratio holds as the machine's speed drifts.
        const resume = async (file: Buffer | undefined) => {
          const firstRequest: number[] = [];
          const ratio: number[] = [];
          const cpu: number[] = [];
          for (let run = 0; run <= RUNS; run++) {
            rmSync(sessions, { recursive: true, force: true });
            cpSync(pristine, sessions, { recursive: true });
            if (file) writeFileSync(measures, file);
            const started = await newSession();
            const resumed = await firstRequestOf(["-c", "-p", "go on"], cwd, home);
            if (run === 0) continue; // warm-up: the page cache, the binary
            firstRequest.push(resumed.ms);
            ratio.push(resumed.ms / started);
            cpu.push(resumed.cpuMs);
          }
          return { at: median(firstRequest), ratio: median(ratio), cpu: median(cpu) };
        };
        const aim = turns === 1_000 ? "  [aim ≤ 1.5× a new session]" : turns === 5_000 ? "  [aim ≤ 150 ms]" : "";
        const label = `-c -p on a ${turns.toLocaleString("en-US")}-turn session (${(size / 1e6).toFixed(1)} MB log)`;
        const figures = ({ at, ratio, cpu }: { at: number; ratio: number; cpu: number }) =>
          `first request after ${ms(at)} (${ratio.toFixed(2)}× a new session, pair by pair; medians of ${RUNS}); whole run ${ms(cpu)} CPU`;
        lines.push(`${label}, measured by the last run: ${left ? figures(await resume(left)) : "no measures left (a short history)"}${aim}`);
        lines.push(`${label}, measuring it itself: ${figures(await resume(undefined))}`);
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(cwd, { recursive: true, force: true });
        rmSync(pristine, { recursive: true, force: true });
      }
    }
    return lines;
  } finally {
    await server.stop();
  }
}
