/**
 * Resuming a long session (issues 15 and 21): the time from `shiro -c -p` starting to the strict
 * server receiving its first request, at 100 / 1,000 / 5,000 turns, beside a new session's (`shiro
 * -p` in an empty home) — aim: within 1.5× a new session at 1,000 turns (a 2.5 MB log), ≤ 150 ms at
 * 5,000. It reads the folder's index, opens and reduces the log, and composes the first request
 * over the whole history (at 5,000 turns its notes alone overflow gpt-5's window, so the first
 * request is the summary it asks for). Each resume takes the session as a run left it: the log, and
 * beside it what that run kept for the next resume — the wire measures (`<id>.measures`) and the
 * state of the log's lines (`<id>.state`) — and again without them.
 */
import { cpSync, existsSync, rmSync, statSync } from "node:fs";
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
      const left = tempDir("bench-resume-left");
      try {
        const id = await writeLongSession(home, cwd, turns);
        const sessions = join(home, "sessions");
        // The session as a run left it, to resume again and again (a run appends to the log, and may summarise it):
        // its log, one turn longer, and beside it what the run kept for the next resume (the wire measures, the state).
        await firstRequestOf(["-c", "-p", "go on"], cwd, home);
        cpSync(sessions, left, { recursive: true });
        const size = statSync(join(sessions, `${id}.jsonl`)).size;
        const caches = [`${id}.measures`, `${id}.state`].filter((name) => existsSync(join(left, name)));
        const kept = caches.map((name) => name.slice(id.length + 1)).join(" and ");
        // Each resume beside a new session run just before it, so that the ratio holds as the machine's speed drifts.
        const resume = async (withCaches: boolean) => {
          const firstRequest: number[] = [];
          const ratio: number[] = [];
          const cpu: number[] = [];
          for (let run = 0; run <= RUNS; run++) {
            rmSync(sessions, { recursive: true, force: true });
            cpSync(left, sessions, { recursive: true });
            if (!withCaches) for (const name of caches) rmSync(join(sessions, name));
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
        lines.push(`${label}, with what the last run kept (${kept || "nothing: a short history"}): ${figures(await resume(true))}${aim}`);
        lines.push(`${label}, without it: ${figures(await resume(false))}`);
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(cwd, { recursive: true, force: true });
        rmSync(left, { recursive: true, force: true });
      }
    }
    return lines;
  } finally {
    await server.stop();
  }
}
