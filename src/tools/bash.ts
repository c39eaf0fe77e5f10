import { closeSync, readSync } from "node:fs";
import { z } from "zod";
import { RUN_TIMEOUT } from "../session/stop-reason.ts";
import { defineTool, type PreparedCommand } from "./tool.ts";
import { spelledControls } from "../text/spelled-controls.ts";
import { CappedOutput } from "./capped-output.ts";
import { commandArgv, LIFELINE, shellArgv } from "./command-argv.ts";
import { feedPipe } from "./feed-pipe.ts";
import { holdLifeline } from "./lifeline.ts";
import { looksOffline, OFFLINE_NOTE } from "./network-failure.ts";

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_MAX_OUTPUT_CHARS = 30_000;
// After the command exits, how long background children may keep its output pipes open.
const PIPE_GRACE_MS = 250;
// How long a killed command gets to run its exit traps before SIGKILL.
const KILL_GRACE_MS = 1000;

const schema = z.object({
  command: z.string().min(1),
  timeout_ms: z.number().int().min(1).max(BASH_MAX_TIMEOUT_MS).optional(),
});

type Ending = "exit" | "timeout" | "abort" | "interrupt" | "lingering";

export const bash = defineTool({
  name: "bash",
  description:
    `Run \`bash -c <command>\` in the project root: stdout and stderr combined (over ${BASH_MAX_OUTPUT_CHARS} characters, their start and end) ` +
    `and the exit code. \`timeout_ms\` default ${BASH_DEFAULT_TIMEOUT_MS}; on timeout the command and all it started are killed. ` +
    `stdin is closed: no interactive programs. The sandbox: usually read-only outside the project and a private /tmp; secret files hidden. ` +
    `A background job ends with the command unless it runs outside the sandbox with its output redirected (\`cmd > log 2>&1 &\`): ` +
    `start a server and use it in one command. Read and search files with the file tools.`,
  schema,
  kind: "exec",
  subject: (args) => ({ command: args.command }),
  async run(args, ctx) {
    const timeoutMs = args.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS;
    // detached: the command leads its own process group, so one kill reaches everything it started.
    // env given explicitly: Bun.spawn otherwise uses the environment the process started with.
    // stdin stays /dev/null; slot 3 is the lifeline that kills the group should shiro die (command-argv.ts).
    // The sandbox (if any) wraps the shell; the lifeline stays outside it, watching the whole group.
    const prepared = ctx.sandbox?.prepare(shellArgv(args.command), ctx.root, args.command) ?? { argv: shellArgv(args.command), check: () => ({ notes: [], denied: false }) };
    const proc = Bun.spawn(commandArgv(prepared.argv, LIFELINE, prepared.group?.procs), {
      cwd: ctx.root,
      env: ctx.env,
      stdio: ["ignore", "pipe", "pipe", LIFELINE ? "pipe" : "ignore", prepared.fd4 ? "pipe" : "ignore", prepared.listsPrivateWrites ? "pipe" : "ignore"],
      detached: true,
    });
    if (prepared.fd4) feedPipe(proc.stdio[4] as number, prepared.fd4);
    const listing = prepared.listsPrivateWrites ? (proc.stdio[5] as number) : undefined;
    const lifeline = holdLifeline(proc.stdio[3] ?? null);
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-proc.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    // SIGTERM first so exit traps run (a command killed mid-write can leave stale lock files); SIGKILL what remains.
    let escalation: ReturnType<typeof setTimeout> | undefined;
    const killGroup = () => {
      signalGroup("SIGTERM");
      escalation ??= setTimeout(() => {
        signalGroup("SIGKILL");
        lifeline.cut();
      }, KILL_GRACE_MS);
    };
    const output = new CappedOutput(BASH_MAX_OUTPUT_CHARS);
    const take = (chunk: string) => {
      output.push(chunk);
      if (chunk) ctx.onOutput?.(chunk);
    };
    const pipes = Promise.all([pump(proc.stdout, take), pump(proc.stderr, take)]);

    let ending: Ending = "exit";
    const stop = (why: Ending) => () => {
      if (ending === "exit") ending = why;
      killGroup();
    };
    const timer = setTimeout(stop("timeout"), timeoutMs);
    const onAbort = stop("abort");
    const onInterrupt = stop("interrupt");
    ctx.signal.addEventListener("abort", onAbort);
    ctx.interrupt?.addEventListener("abort", onInterrupt);
    if (ctx.signal.aborted) onAbort();
    if (ctx.interrupt?.aborted) onInterrupt();
    try {
      const code = await proc.exited;
      const drained = await Promise.race([pipes.then(() => true), Bun.sleep(PIPE_GRACE_MS).then(() => false)]);
      if (!drained) {
        if (ending === "exit") ending = "lingering";
        killGroup();
        await pipes;
      }
      const text = output.text();
      const result = report(text, code, ending, timeoutMs, ctx.signal.reason);
      const wantedNetwork = !!prepared.offline && ending === "exit" && code !== 0 && looksOffline(text);
      return withAftermath(result, prepared, wantedNetwork, listing === undefined ? undefined : readWaiting(listing));
    } finally {
      if (listing !== undefined) closeSync(listing);
      clearTimeout(timer);
      // Killed: the lifeline stays armed until the SIGKILL, so a shiro that exits sooner still kills the rest.
      if (!escalation) lifeline.release();
      // Its pids cgroup goes once empty (moments after the command; at most a few seconds after a kill).
      await prepared.group?.release();
      ctx.signal.removeEventListener("abort", onAbort);
      ctx.interrupt?.removeEventListener("abort", onInterrupt);
    }
  },
});

/**
 * What waits in a pipe now: the command's shell wrote it before it exited, and the lifeline watcher (which
 * holds the pipe open too) never writes, so this reads until the pipe is empty rather than to its end.
 */
function readWaiting(fd: number): string {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = Buffer.alloc(16_384);
    let n = 0;
    try {
      n = readSync(fd, chunk);
    } catch {
      // EAGAIN: nothing more.
    }
    if (n === 0) return Buffer.concat(chunks).toString("utf8");
    chunks.push(chunk.subarray(0, n));
  }
}

async function pump(stream: ReadableStream<Uint8Array>, take: (chunk: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const bytes of stream) take(decoder.decode(bytes, { stream: true }));
  take(decoder.decode());
}

/** The sandbox's word on the command: that it ran read-only or failed for want of network, and what it left that counts as a denial. */
function withAftermath(result: { output: string; isError: boolean }, prepared: PreparedCommand, wantedNetwork: boolean, privateWrites?: string) {
  const after = prepared.check(privateWrites);
  const notes = [...(prepared.note ? [prepared.note] : []), ...(wantedNetwork ? [OFFLINE_NOTE] : []), ...after.notes];
  if (!notes.length) return result;
  return { output: `${result.output}\n${notes.join("\n")}`, isError: result.isError || after.denied, ...(after.denied ? { denied: true } : {}) };
}

/** Why the run stopped, as the model reads it on `shiro -c`: the person, the run's --timeout, or a signal to shiro. */
const abortedBecause = (reason: unknown) =>
  reason === RUN_TIMEOUT ? "Stopped: the run reached its --timeout" : typeof reason === "string" && reason.startsWith("SIG") ? `Stopped: shiro received ${reason}` : "Interrupted by the user";

function report(text: string, code: number, ending: Ending, timeoutMs: number, abortReason: unknown) {
  const body = text === "" ? "(no output)" : spelledControls(text.replace(/\n$/, ""));
  const notes: Record<Ending, string> = {
    exit: `Exit code: ${code}`,
    lingering: `Exit code: ${code}. Background processes still holding the output were killed; redirect a background job's output to keep it running.`,
    timeout: `Timed out after ${timeoutMs / 1000} s; the command and every process it started were killed.`,
    abort: `${abortedBecause(abortReason)}; the command and every process it started were killed.`,
    interrupt: "Stopped by the user (Ctrl-C); the command and every process it started were killed.",
  };
  const isError = ending === "timeout" || ending === "abort" || ending === "interrupt" || code !== 0;
  return { output: `${body}\n\n${notes[ending]}`, isError };
}
