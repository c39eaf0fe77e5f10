/**
 * action/run.sh as a runner runs it: inputs as INPUT_* variables, a $RUNNER_TEMP, a $GITHUB_OUTPUT of
 * its own per step; and release folders served on loopback the way GitHub serves a release's files.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { BINARY, REPO } from "./binary.ts";
import { tempDir } from "./run-shiro.ts";
import { TEST_API_KEY } from "./test-key.ts";

export const ACTION_SCRIPT = join(REPO, "action/run.sh");

/** The name this machine's binary has in a release (build.ts), which run.sh downloads on a runner like it. */
export const HOST_ASSET = `shiro-${process.platform === "win32" ? "windows" : process.platform}-${process.arch}${process.platform === "win32" ? ".exe" : ""}`;

/** A release folder as build.ts --all leaves it: this machine's binary under its target's name, and SHA256SUMS (`sums` of its hash). */
export function publishRelease(root: string, name: string, sums: (hash: string) => string = (hash) => `${hash}  ${HOST_ASSET}`) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(BINARY, join(dir, HOST_ASSET));
  const hash = createHash("sha256").update(readFileSync(join(dir, HOST_ASSET))).digest("hex");
  writeFileSync(join(dir, "SHA256SUMS"), `${"0".repeat(64)}  shiro-other-target\n${sums(hash)}\n`);
}

/** Serves `root/<folder>/<file>` at `/<folder>/<file>` on loopback; anything else is a 404. */
export function serveReleases(root: string) {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const [, folder, file] = new URL(req.url).pathname.split("/");
      const path = join(root, folder ?? "", basename(file ?? ""));
      return existsSync(path) ? new Response(Bun.file(path)) : new Response("Not Found", { status: 404 });
    },
  });
  return { url: (folder: string) => `http://127.0.0.1:${server.port}/${folder}`, stop: () => server.stop(true) };
}

/** $GITHUB_OUTPUT as the runner reads it: `name<<DELIMITER`, the value's lines, `DELIMITER`. */
export function outputsOf(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const lines = readFileSync(path, "utf8").split("\n");
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const m = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    out[m[1]!] = lines.slice(i + 1, end).join("\n");
    i = end;
  }
  return out;
}

export type ActionStep = {
  cwd: string;
  /** Input names as in action.yml (`output-schema`), each passed as its INPUT_ variable. */
  inputs: Record<string, string>;
  /** The job's temp folder: steps of one job share it. A new one when not given. */
  runnerTemp?: string;
  env?: Record<string, string>;
  /** A command the script runs under (a runner that refuses namespaces). */
  wrap?: readonly string[];
};

/** One step using the action: its exit code, what it printed, and the outputs it wrote. */
export async function runActionStep(step: ActionStep) {
  const runnerTemp = step.runnerTemp ?? tempDir("runner-temp");
  const [home, shiroHome, outputDir] = [tempDir("action-home"), tempDir("action-shirohome"), tempDir("github-output")];
  const githubOutput = join(outputDir, "output");
  const proc = Bun.spawn([...(step.wrap ?? []), "bash", ACTION_SCRIPT], {
    cwd: step.cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH!,
      HOME: home,
      SHIRO_HOME: shiroHome,
      OPENAI_API_KEY: TEST_API_KEY,
      NO_COLOR: "1",
      RUNNER_TEMP: runnerTemp,
      GITHUB_OUTPUT: githubOutput,
      ...Object.fromEntries(Object.entries(step.inputs).map(([k, v]) => [`INPUT_${k.toUpperCase().replaceAll("-", "_")}`, v])),
      ...step.env,
    },
  });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr, outputs: outputsOf(githubOutput), shiroHome, runnerTemp };
}
