import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./binary.ts";

export type ShiroRun = { code: number; stdout: string; stderr: string };

export type ShiroOptions = {
  cwd: string;
  home?: string;
  /** Written to stdin and closed; `"open"` keeps stdin open and silent (a CI runner's pipe). */
  stdin?: string | "open";
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
};

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `shiro-${prefix}-`));

/** Spawns the compiled binary as a user would, with a temp SHIRO_HOME and no real API key. */
export async function runShiro(args: string[], opts: ShiroOptions): Promise<ShiroRun> {
  const proc = Bun.spawn([BINARY, ...args], {
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "ignore" : "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH,
      HOME: opts.home ?? tempDir("home"),
      SHIRO_HOME: opts.home ?? tempDir("shirohome"),
      OPENAI_API_KEY: "test-key-not-a-secret",
      NO_COLOR: "1",
      ...opts.env,
    } as Record<string, string>,
  });
  if (opts.stdin !== undefined && opts.stdin !== "open") {
    proc.stdin!.write(opts.stdin);
    await proc.stdin!.end();
  }
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  if (opts.stdin === "open") await proc.stdin!.end();
  return { code, stdout, stderr };
}
