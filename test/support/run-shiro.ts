import type { FileSink } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "./binary.ts";
import { TEST_API_KEY } from "./test-key.ts";

export type ShiroRun = { code: number; stdout: string; stderr: string };

/** A run as it goes, for a test that writes to stdin while watching what comes out. */
export type LiveRun = {
  stdout(): string;
  stderr(): string;
  /** Milliseconds since the binary was spawned. */
  elapsedMs(): number;
  /** Resolves with `elapsedMs()` once `check` holds; rejects after `timeoutMs`. */
  waitFor(check: () => boolean, timeoutMs: number): Promise<number>;
};

/** Gets stdin open (a slow build, or a CI runner's pipe) and must end it when it is done. */
export type StdinFeed = (stdin: FileSink, run: LiveRun) => Promise<void>;

export type ShiroOptions = {
  cwd: string;
  home?: string;
  /** A string is written to stdin and closed; a feed writes when it likes. Without it stdin is /dev/null. */
  stdin?: string | StdinFeed;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** A command the binary runs under (`unshare … setpriv …`: a machine that refuses namespaces). */
  wrap?: readonly string[];
  /** Another copy of the binary (one another user can reach: a checkout may sit under a 0700 folder). */
  binary?: string;
};

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `shiro-${prefix}-`));

/** Spawns the compiled binary as a user would, with a temp SHIRO_HOME (removed after) and no real API key. */
export async function runShiro(args: string[], opts: ShiroOptions): Promise<ShiroRun> {
  const homes = opts.home ? [] : [tempDir("home"), tempDir("shirohome")];
  try {
    return await spawnRun(args, opts, homes);
  } finally {
    for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  }
}

async function spawnRun(args: string[], opts: ShiroOptions, [home, shiroHome]: string[]): Promise<ShiroRun> {
  const started = performance.now();
  const proc = Bun.spawn([...(opts.wrap ?? []), opts.binary ?? BINARY, ...args], {
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "ignore" : "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH,
      HOME: opts.home ?? home,
      SHIRO_HOME: opts.home ?? shiroHome,
      OPENAI_API_KEY: TEST_API_KEY,
      NO_COLOR: "1",
      ...opts.env,
    } as Record<string, string>,
  });
  const out = { stdout: "", stderr: "" };
  const live: LiveRun = {
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    elapsedMs: () => performance.now() - started,
    async waitFor(check, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (!check()) {
        if (performance.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms; stderr so far: ${out.stderr}`);
        await Bun.sleep(20);
      }
      return live.elapsedMs();
    },
  };
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
  const fed =
    typeof opts.stdin === "function"
      ? opts.stdin(proc.stdin!, live).catch((e) => {
          proc.kill("SIGKILL");
          throw e;
        })
      : opts.stdin !== undefined && writeAndClose(proc.stdin!, opts.stdin);
  const [code] = await Promise.all([proc.exited, collect(proc.stdout, out, "stdout"), collect(proc.stderr, out, "stderr"), fed]);
  clearTimeout(timer);
  return { code, ...out };
}

async function writeAndClose(stdin: FileSink, text: string): Promise<void> {
  stdin.write(text);
  await stdin.end();
}

async function collect(stream: ReadableStream<Uint8Array>, out: { stdout: string; stderr: string }, key: "stdout" | "stderr") {
  const decoder = new TextDecoder();
  for await (const chunk of stream) out[key] += decoder.decode(chunk, { stream: true });
  out[key] += decoder.decode();
}
