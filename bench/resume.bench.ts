/**
 * Resuming a long session (issue 15): the time from `shiro -c -p` starting to the strict server
 * receiving its first request, at 100 / 1,000 / 5,000 turns (aim: ≤ 150 ms at 5,000 turns). It
 * reads the folder's index, opens and reduces the log, and composes the first request over the
 * whole history (at 5,000 turns its notes alone overflow gpt-5's window, so the first request is
 * the summary it asks for).
 */
import { cpSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { writeLongSession } from "../test/support/long-session.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { median } from "./median.ts";
import { ms } from "./process-figures.ts";

const RUNS = 5;

export async function bench(): Promise<string[]> {
  ensureBinary();
  const server = await startStrictServer();
  const lines: string[] = [];
  try {
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
        const firstRequest: number[] = [];
        const cpu: number[] = [];
        for (let run = 0; run <= RUNS; run++) {
          rmSync(sessions, { recursive: true, force: true });
          cpSync(pristine, sessions, { recursive: true });
          const before = server.requests.length;
          const start = performance.now();
          const proc = Bun.spawn([BINARY, "-c", "-p", "go on"], {
            cwd,
            stdin: "ignore",
            stdout: "ignore",
            stderr: "pipe",
            env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" },
          });
          const code = await proc.exited;
          if (code !== 0) throw new Error(`shiro -c -p exited ${code}: ${await new Response(proc.stderr).text()}`);
          const request = server.requests[before];
          if (!request || request.status !== 200) throw new Error(`the resumed request was refused: ${request?.raw.slice(0, 300)}`);
          if (run === 0) continue; // warm-up: the page cache, the binary
          firstRequest.push(request.at - start);
          cpu.push(Number(proc.resourceUsage()!.cpuTime.total) / 1000);
        }
        lines.push(`-c -p on a ${turns.toLocaleString("en-US")}-turn session (${(size / 1e6).toFixed(1)} MB log): first request after ${ms(median(firstRequest))} (median of ${RUNS}); whole run ${ms(median(cpu))} CPU  [aim ≤ 150 ms at 5,000 turns]`);
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
