import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { spawnPty, type Pty } from "../test/support/pty.ts";
import { medianMs } from "./median.ts";

const RUNS = 15;

/** REPL ready: from spawning dist/shiro in a pseudo-terminal until its prompt is on screen (issue 3 aims under 100 ms). */
export async function bench(): Promise<string[]> {
  ensureBinary();
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-repl-"));
  const home = join(root, "home");
  const started: Pty[] = [];
  // No request is made before the prompt; the URL only has to be loopback.
  const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "bench-key", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
  const until = async (args: string[], pattern: string | RegExp) => {
    const pty = spawnPty([BINARY, ...args], { cwd: root, env });
    started.push(pty);
    await pty.waitFor(pattern, { timeoutMs: 5000 });
    pty.kill("SIGKILL");
  };
  try {
    const version = await medianMs(RUNS, () => until(["--version"], "shiro "));
    const ready = await medianMs(RUNS, () => until([], /› $/));
    return [
      `REPL ready (spawn → prompt on screen, in a pty): median ${ready.toFixed(0)} ms over ${RUNS} runs (aim < 100 ms)`,
      `for scale, \`shiro --version\` in the same pty: median ${version.toFixed(0)} ms`,
    ];
  } finally {
    await Promise.all(started.map((pty) => pty.exited));
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log((await bench()).join("\n"));
