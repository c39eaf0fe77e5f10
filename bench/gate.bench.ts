import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox } from "../src/sandbox/create-sandbox.ts";
import { detectSandbox } from "../src/sandbox/detect-sandbox.ts";
import { gateSupport } from "../src/sandbox/gate/gate-support.ts";
import { landlockAbi } from "../src/sandbox/landlock-syscalls.ts";
import { bash } from "../src/tools/shell/bash.ts";
import type { ToolContext } from "../src/tools/tool.ts";
import { toolEnv } from "../src/secrets/tool-env.ts";
import { median } from "./median.ts";

const FILES = 20_000;
const RUNS = 3;
const PY = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
// An npm ci's worth of work on a node_modules-sized tree: 2,000 folders of 10 files made, every file read, all removed.
const STEPS = {
  install: `${PY} -c "import os
for d in range(${FILES / 10}):
  os.makedirs(f'node_modules/p{d}')
  for f in range(10): open(f'node_modules/p{d}/f{f}.js', 'w').write('module.exports = 1;\\\\n' * 20)"`,
  read: "find node_modules -type f -exec cat {} + > /dev/null",
  remove: "rm -rf node_modules",
};

/**
 * What the Landlock gate costs an approved command: every open, make, remove and rename of the
 * command goes through it. Each step bare, under Landlock with the gate (a project with a `.env`, as
 * most have), and under bubblewrap where it runs; the figure that matters is the gate's cost per file.
 */
export async function bench(): Promise<string[]> {
  if (landlockAbi() === 0) return ["no Landlock on this machine"];
  const gate = gateSupport();
  if (!gate.ok) return [`the gate cannot run here: ${gate.why}`];
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-gate-"));
  writeFileSync(join(root, ".env"), "SECRET=bench-secret-value\n");
  const home = process.env.HOME;
  process.env.HOME = root;
  try {
    const base: ToolContext = { root, signal: new AbortController().signal, env: toolEnv(process.env).env };
    const ways: [string, ToolContext][] = [["bare", base]];
    for (const backend of ["landlock", "bwrap"] as const) {
      const sandbox = createSandbox({ mode: "workspace-write", network: "on", home: root, shiroHome: join(root, "none"), warn: () => {}, detect: () => detectSandbox({ backend }) });
      const s = await sandbox.support();
      if (s !== "off" && s.kind === backend) ways.push([backend === "landlock" ? "Landlock + gate" : "bubblewrap", { ...base, sandbox: await sandbox.at({ level: "workspace-write", byPerson: true }) }]);
    }
    const times = new Map<string, Record<string, number[]>>();
    for (let run = 0; run < RUNS; run++) {
      for (const [way, ctx] of ways) {
        const row = times.get(way) ?? times.set(way, {}).get(way)!;
        for (const [step, command] of Object.entries(STEPS)) {
          const start = performance.now();
          const r = await bash.run({ command, timeout_ms: 600_000 }, ctx);
          if (!r.output.includes("Exit code: 0")) return [`${way} ${step} failed: ${r.output.slice(0, 300)}`];
          (row[step] ??= []).push(performance.now() - start);
        }
      }
    }
    const bare = times.get("bare")!;
    return [...times].map(([way, row]) => {
      const cells = Object.keys(STEPS).map((step) => {
        const ms = median(row[step]!);
        const extra = way === "bare" ? "" : ` (+${(((ms - median(bare[step]!)) * 1000) / FILES).toFixed(1)} µs a file)`;
        return `${step} ${ms.toFixed(0)} ms${extra}`;
      });
      return `${way.padEnd(16)} ${FILES} files: ${cells.join(", ")}  (median of ${RUNS})`;
    });
  } finally {
    process.env.HOME = home;
    rmSync(root, { recursive: true, force: true });
  }
}
