import { CappedOutput } from "../tools/capped-output.ts";
import type { HookExit } from "./hook-outcome.ts";

/** What a hook prints is for a decision and a reason, not a log: more than this is cut from the middle. */
const MAX_OUTPUT_CHARS = 64_000;

export type HookCommand = { bash: string; command: string; input: string; cwd: string; env: Readonly<Record<string, string>>; timeoutMs: number; signal?: AbortSignal };

/**
 * Runs one hook as the person, outside the sandbox, like a git hook: `bash -c <command>` — the
 * command string is the person's own — with the event's JSON on stdin, the only way anything the
 * model wrote reaches it. It leads its own process group, killed whole at its timeout (or abort).
 */
export async function runHookCommand(opts: HookCommand): Promise<HookExit> {
  let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    proc = Bun.spawn([opts.bash, "-c", opts.command], { cwd: opts.cwd, env: { ...opts.env }, stdin: "pipe", stdout: "pipe", stderr: "pipe", detached: true });
  } catch (err) {
    return { stdout: "", stderr: "", timedOut: false, spawnError: (err as Error).message };
  }
  let timedOut = false;
  const killGroup = () => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  // The deadline covers the output too: a child left holding the pipes is killed with the rest.
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, opts.timeoutMs);
  const onAbort = () => killGroup();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    feed(proc, opts.input);
    const [stdout, stderr, exit] = await Promise.all([collect(proc.stdout), collect(proc.stderr), proc.exited]);
    return { ...(timedOut || proc.signalCode ? {} : { exit }), stdout, stderr, timedOut };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

/** A hook that never reads its stdin must not fail for it: a closed pipe is ignored. */
function feed(proc: Bun.Subprocess<"pipe", "pipe", "pipe">, input: string) {
  try {
    proc.stdin.write(input);
    void Promise.resolve(proc.stdin.end()).catch(() => {});
  } catch {
    // The hook exited or closed stdin first.
  }
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  const out = new CappedOutput(MAX_OUTPUT_CHARS);
  const decoder = new TextDecoder();
  for await (const bytes of stream) out.push(decoder.decode(bytes, { stream: true }));
  out.push(decoder.decode());
  return out.text();
}
