import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./median.ts";
import { grep } from "../src/tools/search/grep.ts";
import { glob } from "../src/tools/search/glob.ts";
import type { AnyTool, ToolContext } from "../src/tools/tool.ts";
import { createReadCheck } from "../src/guard/read-check.ts";
import { SECRET_GLOBS } from "../src/guard/secret-globs.ts";
import { wideTree } from "../test/support/wide-tree.ts";

const RUNS = 7;

/**
 * grep and glob over a generated 100,001-file tree, each against the command-line tool doing the same
 * job: grep with ripgrep and without it (the JavaScript scan) against plain `rg`, glob against
 * `find`. The tools run in this process with what the runtime gives them (the per-file read check,
 * the secret globs); commands are spawned. Tool and command runs alternate, so the load of a shared
 * machine falls on both alike; the figures are medians.
 */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-search-"));
  try {
    const files = wideTree(root, 100_000);
    const check = createReadCheck({ rules: [] });
    const ctx: ToolContext = { root, signal: new AbortController().signal, env: { PATH: process.env.PATH ?? "" }, readDenied: (path) => check("grep", path, root), secretGlobs: SECRET_GLOBS };
    // grep takes rg from the system folders only: without it is a run whose SHIRO_SYSTEM_DIRS holds none.
    const withRg = undefined;
    const withoutRg = "/nonexistent";
    const rg = ["rg", "--no-config", "-n", "needle"];
    const rgGlob = ["rg", "--no-config", "-n", "-g", "*.txt", "needle"];
    const rows: [string, AnyTool, Record<string, string>, string | undefined, string[], number?][] = [
      ["grep needle, with rg         vs rg       ", grep, { pattern: "needle" }, withRg, rg, 1.5],
      ["grep needle, without rg      vs rg       ", grep, { pattern: "needle" }, withoutRg, rg, 3],
      ["grep needle *.txt, with rg   vs rg -g    ", grep, { pattern: "needle", glob: "*.txt" }, withRg, rgGlob, 1.5],
      ["grep needle *.txt, without rg vs rg -g   ", grep, { pattern: "needle", glob: "*.txt" }, withoutRg, rgGlob, 3],
      ["glob d0420/*.ts              vs find d0420", glob, { pattern: "d0420/*.ts" }, withRg, ["find", "d0420", "-name", "*.ts"]],
      ["glob **/*.txt                vs find .    ", glob, { pattern: "**/*.txt" }, withRg, ["find", ".", "-name", "*.txt"]],
    ];
    const lines = [`tree: ${files.toLocaleString("en-US")} files, 100 to a folder; median wall ms of ${RUNS} alternating runs`];
    for (const [label, tool, args, systemDirs, command, aim] of rows) {
      const { tool: toolMs, command: commandMs } = await alternate(tool, args, ctx, systemDirs, command, root);
      lines.push(`${label}: ${toolMs.toFixed(0).padStart(4)} ms vs ${commandMs.toFixed(0).padStart(4)} ms → ${(toolMs / commandMs).toFixed(2)}×${aim ? ` (aim ≤ ${aim}×)` : ""}`);
    }
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function alternate(tool: AnyTool, args: unknown, ctx: ToolContext, systemDirs: string | undefined, command: string[], cwd: string) {
  const toolTimes: number[] = [];
  const commandTimes: number[] = [];
  const before = process.env.SHIRO_SYSTEM_DIRS;
  const set = (value: string | undefined) => (value === undefined ? delete process.env.SHIRO_SYSTEM_DIRS : (process.env.SHIRO_SYSTEM_DIRS = value));
  for (let i = 0; i <= RUNS; i++) {
    let start = performance.now();
    set(systemDirs);
    const out = await tool.run(tool.schema.parse(args), ctx).finally(() => set(before));
    if (out.isError || out.output.startsWith("No ")) throw new Error(`${tool.name} found nothing: ${out.output}`);
    if (i > 0) toolTimes.push(performance.now() - start);
    start = performance.now();
    await Bun.spawn(command, { cwd, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
    if (i > 0) commandTimes.push(performance.now() - start);
  }
  return { tool: median(toolTimes), command: median(commandTimes) };
}
