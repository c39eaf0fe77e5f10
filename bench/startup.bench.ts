/**
 * Start-up against issue 2's figures: `shiro --version` within 2× the wall time of a compiled Bun
 * hello-world measured in the same run, peak RSS under 30 MB. `--help` is measured alongside.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { median } from "./median.ts";
import { mb, ms, peakRssKib, rssSource, timeRun } from "./process-figures.ts";

const RUNS = 25;
const RSS_RUNS = 5;

function compileHelloWorld(dir: string): string {
  writeFileSync(join(dir, "hello.ts"), `console.log("hello");\n`);
  const outfile = join(dir, "hello");
  const built = Bun.spawnSync(["bun", "build", "--compile", "hello.ts", "--outfile", outfile], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (built.exitCode !== 0) throw new Error(`compiling the hello-world failed: ${built.stderr.toString()}`);
  return outfile;
}

type Figures = { wall: number[]; cpu: number[]; rssKib: number };

export async function bench(): Promise<string[]> {
  ensureBinary();
  const dir = mkdtempSync(join(tmpdir(), "shiro-bench-startup-"));
  try {
    const commands = { hello: [compileHelloWorld(dir)], version: [BINARY, "--version"], help: [BINARY, "--help"] };
    const names = Object.keys(commands) as (keyof typeof commands)[];
    const fresh = (): Figures => ({ wall: [], cpu: [], rssKib: 0 });
    const figures = { hello: fresh(), version: fresh(), help: fresh() };
    for (const name of names) await timeRun(commands[name]); // warm the page cache
    // Interleaved, so a burst of load on the shared machine hits every command alike.
    for (let i = 0; i < RUNS; i++)
      for (const name of names) {
        const run = await timeRun(commands[name]);
        figures[name].wall.push(run.wallMs);
        figures[name].cpu.push(run.cpuMs);
      }
    for (let i = 0; i < RSS_RUNS; i++) for (const name of names) figures[name].rssKib = Math.max(figures[name].rssKib, await peakRssKib(commands[name]));

    const helloWall = median(figures.hello.wall);
    const line = (label: string, name: keyof typeof commands) => {
      const f = figures[name];
      const ratio = name === "hello" ? "" : `, ${(median(f.wall) / helloWall).toFixed(2)}× the hello-world`;
      return `${label}: median ${ms(median(f.wall))} wall${ratio}, ${ms(median(f.cpu))} CPU (${RUNS} runs); peak RSS ${mb(f.rssKib)}`;
    };
    return [
      line("compiled Bun hello-world", "hello"),
      line("shiro --version", "version") + "  [target ≤ 2× wall, < 30 MB]",
      line("shiro --help", "help"),
      `(peak RSS: max of ${RSS_RUNS} runs via ${rssSource})`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
