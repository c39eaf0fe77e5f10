import { CappedOutput } from "../process/capped-output.ts";
import { spawnPrepared, type SpawnedCommand } from "../process/spawn-prepared.ts";
import type { PreparedCommand } from "../process/prepared-command.ts";
import type { HookExit } from "./hook-outcome.ts";

/** What a hook prints is for a decision and a reason, not a log: more than this is cut from the middle. */
const MAX_OUTPUT_CHARS = 64_000;

export type HookCommand = { input: string; cwd: string; env: Readonly<Record<string, string>>; timeoutMs: number; signal?: AbortSignal };

/**
 * Runs one hook, prepared where it belongs (hook-box.ts: the sandbox, as commands run), started as
 * the bash tool starts a command (spawn-prepared.ts): the event's JSON on stdin, the only way
 * anything the model wrote reaches it; its whole process group killed at its timeout (or abort);
 * once it ended, the sandbox's word on what it left (a secret file it made, a planted repository).
 */
export async function runHookCommand(prepared: PreparedCommand, opts: HookCommand): Promise<HookExit> {
  let command: SpawnedCommand;
  try {
    command = spawnPrepared(prepared, { cwd: opts.cwd, env: opts.env, stdin: "pipe" });
  } catch (err) {
    return { stdout: "", stderr: "", timedOut: false, spawnError: (err as Error).message };
  }
  const { proc } = command;
  let timedOut = false;
  // The deadline covers the output too: a child left holding the pipes is killed with the rest.
  const timer = setTimeout(() => {
    timedOut = true;
    command.kill();
  }, opts.timeoutMs);
  const onAbort = () => command.kill();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    feed(proc.stdin, opts.input);
    const [stdout, stderr, exit] = await Promise.all([collect(proc.stdout), collect(proc.stderr), proc.exited]);
    const { notes } = command.aftermath();
    return { ...(timedOut || proc.signalCode ? {} : { exit }), stdout, stderr, timedOut, ...(notes.length ? { notes } : {}) };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    await command.release();
  }
}

/** A hook that never reads its stdin must not fail for it: a closed pipe is ignored. */
function feed(stdin: SpawnedCommand["proc"]["stdin"], input: string) {
  if (!stdin) return;
  try {
    stdin.write(input);
    void Promise.resolve(stdin.end()).catch(() => {});
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
