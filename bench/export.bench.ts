/**
 * `shiro export` and `shiro import` on sessions of 100, 1,000 and 5,000 turns (a prompt, a read with
 * reasoning, its result, an answer each), through the binary: each format written with `-o`, process
 * start to exit (median of 3, wall and CPU), and the size of what it wrote; then importing the JSON
 * into an empty home. Aim: a 1,000-turn session (a 2.5 MB log) in each format under a second.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { writeLongSession } from "../test/support/long-session.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { median } from "./median.ts";
import { ms, timeRun } from "./process-figures.ts";

const RUNS = 3;

export async function bench(): Promise<string[]> {
  ensureBinary();
  const lines: string[] = [];
  for (const turns of [100, 1000, 5000]) {
    const home = tempDir("bench-export-home");
    const cwd = tempDir("bench-export-cwd");
    const next = tempDir("bench-import-home");
    try {
      const id = await writeLongSession(home, cwd, turns);
      const env = (h: string) => ({ PATH: process.env.PATH, HOME: h, SHIRO_HOME: h, NO_COLOR: "1" });
      const log = statSync(join(home, "sessions", `${id}.jsonl`)).size;
      const figures: string[] = [];
      for (const format of ["md", "html", "json"]) {
        const file = join(cwd, `session.${format}`);
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await timeRun([BINARY, "export", id, "--format", format, "-o", file], { cwd, env: env(home) }));
        figures.push(`${format} ${ms(median(runs.map((r) => r.wallMs)))} (cpu ${ms(median(runs.map((r) => r.cpuMs)))}), ${mb(statSync(file).size)}`);
      }
      const imports = [];
      for (let i = 0; i < RUNS; i++) {
        rmSync(join(next, "sessions"), { recursive: true, force: true });
        imports.push(await timeRun([BINARY, "import", join(cwd, "session.json")], { cwd, env: env(next) }));
      }
      const imported = readdirSync(join(next, "sessions")).find((f) => f.endsWith(".jsonl"))!;
      figures.push(`import ${ms(median(imports.map((r) => r.wallMs)))} (cpu ${ms(median(imports.map((r) => r.cpuMs)))}), a ${mb(statSync(join(next, "sessions", imported)).size)} log`);
      lines.push(`${turns} turns (${mb(log)} log): ${figures.join(" · ")}`);
    } finally {
      for (const dir of [home, cwd, next]) rmSync(dir, { recursive: true, force: true });
    }
  }
  return lines;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
