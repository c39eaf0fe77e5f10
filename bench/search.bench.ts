import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./median.ts";
import { grep } from "../src/tools/grep.ts";
import { glob } from "../src/tools/glob.ts";
import type { AnyTool, ToolContext } from "../src/tools/tool.ts";
import { createReadCheck } from "../src/guard/read-check.ts";
import { SECRET_GLOBS } from "../src/guard/secret-globs.ts";
import { wideTree } from "../test/support/wide-tree.ts";

const RUNS = Number(process.env.SEARCH_RUNS ?? 5);

/**
 * grep and glob over a generated 100,001-file tree, against the command-line tools doing the same:
 * grep with ripgrep on PATH and without it (the JavaScript scan) against plain `rg`, glob against `find`.
 * Tools run in this process with the per-file judgement the runtime gives them; commands are spawned.
 */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-search-"));
  try {
    const files = wideTree(root, 100_000);
    const check = createReadCheck({ rules: [] });
    const ctx = (PATH: string): ToolContext => ({ root, signal: new AbortController().signal, env: { PATH }, readDenied: (path) => check("grep", path, root), secretGlobs: SECRET_GLOBS });
    const withRg = ctx(process.env.PATH ?? "");
    const withoutRg = ctx("/nonexistent");
    const lines = [`tree: ${files.toLocaleString("en-US")} files, 100 to a folder (median of ${RUNS}, wall ms / CPU ms of spawned commands)`];
    const row = (label: string, tool: Figure, command: Figure, target?: number) =>
      `${label}: tool ${tool.wall.toFixed(0)} ms, command ${command.wall.toFixed(0)} ms (cpu ${command.cpu.toFixed(0)}) → ${(tool.wall / command.wall).toFixed(2)}×${target ? ` (aim ≤ ${target}×)` : ""}`;

    const rg = await spawned(["rg", "--no-config", "-n", "needle"], root);
    lines.push(row("grep needle, with rg vs rg", await inProcess(grep, { pattern: "needle" }, withRg), rg, 1.5));
    lines.push(row("grep needle, without rg vs rg", await inProcess(grep, { pattern: "needle" }, withoutRg), rg, 3));
    const rgGlob = await spawned(["rg", "--no-config", "-n", "-g", "*.txt", "needle"], root);
    lines.push(row("grep needle glob *.txt, with rg vs rg -g", await inProcess(grep, { pattern: "needle", glob: "*.txt" }, withRg), rgGlob, 1.5));
    lines.push(row("grep needle glob *.txt, without rg vs rg -g", await inProcess(grep, { pattern: "needle", glob: "*.txt" }, withoutRg), rgGlob, 3));
    lines.push(row("glob d0420/*.ts vs find d0420", await inProcess(glob, { pattern: "d0420/*.ts" }, withRg), await spawned(["find", "d0420", "-name", "*.ts"], root)));
    lines.push(row("glob **/*.txt vs find .", await inProcess(glob, { pattern: "**/*.txt" }, withRg), await spawned(["find", ".", "-name", "*.txt"], root)));
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

type Figure = { wall: number; cpu: number };

async function inProcess(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<Figure> {
  const walls: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const out = await tool.run(tool.schema.parse(args), ctx);
    if (i > 0) walls.push(performance.now() - start);
    if (out.isError) throw new Error(out.output);
  }
  return { wall: median(walls), cpu: 0 };
}

async function spawned(cmd: string[], cwd: string): Promise<Figure> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const proc = Bun.spawn(cmd, { cwd, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    await proc.exited;
    if (i === 0) continue;
    walls.push(performance.now() - start);
    cpus.push(Number(proc.resourceUsage()!.cpuTime.total) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}
