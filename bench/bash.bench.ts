import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs } from "./median.ts";
import { bash } from "../src/tools/bash.ts";
import { toolEnv } from "../src/tools/tool-env.ts";

const RUNS = 60;

/** What one `bash` tool call costs on its own: spawn, login shell, `true`, drain, exit. */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-bash-"));
  // An empty HOME: the figure is shiro's cost, not the login profile of whoever runs the bench.
  const home = process.env.HOME;
  process.env.HOME = root;
  try {
    const ctx = { root, signal: new AbortController().signal, env: toolEnv(process.env).env };
    const call = await medianMs(RUNS, () => bash.run({ command: "true" }, ctx));
    return [`bash tool call (\`true\`, empty HOME): median ${call.toFixed(2)} ms over ${RUNS} runs`];
  } finally {
    process.env.HOME = home;
    rmSync(root, { recursive: true, force: true });
  }
}
