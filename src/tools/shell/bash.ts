import { z } from "zod";
import { RUN_TIMEOUT } from "../../session/stop-reason.ts";
import { defineTool } from "../tool.ts";
import type { PreparedCommand } from "../../process/prepared-command.ts";
import { spelledControls } from "../../text/spelled-controls.ts";
import { CappedOutput } from "../../process/capped-output.ts";
import { spawnPrepared } from "../../process/spawn-prepared.ts";
import { pumpText } from "../../process/pump-text.ts";
import { looksOffline, OFFLINE_NOTE } from "./network-failure.ts";
import { prepareShell } from "./prepare-shell.ts";
import { startBackground } from "./start-background.ts";

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
export const BASH_MAX_OUTPUT_CHARS = 30_000;
// After the command exits, how long background children may keep its output pipes open.
const PIPE_GRACE_MS = 250;

const schema = z.object({
  command: z.string().min(1),
  timeout_ms: z.number().int().min(1).max(BASH_MAX_TIMEOUT_MS).optional(),
  background: z.boolean().optional(),
});

type Ending = "exit" | "timeout" | "abort" | "interrupt" | "lingering";

export const bash = defineTool({
  name: "bash",
  description:
    `Run \`bash -c <command>\` in the project root: stdout and stderr combined (over ${BASH_MAX_OUTPUT_CHARS} characters, their start and end) ` +
    `and the exit code. \`timeout_ms\` default ${BASH_DEFAULT_TIMEOUT_MS}; on timeout the command and all it started are killed. ` +
    `stdin is closed: no interactive programs. The sandbox: usually read-only outside the project and a private /tmp; secret files hidden. ` +
    `\`background\`: returns at once with a job id and its first second of output (no time limit unless timeout_ms); read it with bash_output, ` +
    `stop it with bash_kill; later commands reach its 127.0.0.1 ports; it ends with the session. Read and search files with the file tools.`,
  schema,
  kind: "exec",
  subject: (args) => ({ command: args.command }),
  async run(args, ctx) {
    if (args.background) return startBackground(args.command, args.timeout_ms, ctx);
    const timeoutMs = args.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS;
    // stdin stays /dev/null. The sandbox (if any) wraps the shell; the lifeline stays outside it, watching the whole group.
    const prepared = prepareShell(args.command, ctx);
    const command = spawnPrepared(prepared, { cwd: ctx.root, env: ctx.env, stdin: "ignore" });
    const { proc } = command;
    const output = new CappedOutput(BASH_MAX_OUTPUT_CHARS);
    const take = (chunk: string) => {
      output.push(chunk);
      if (chunk) ctx.onOutput?.(chunk);
    };
    const pipes = Promise.all([pumpText(proc.stdout, take), pumpText(proc.stderr, take)]);

    let ending: Ending = "exit";
    const stop = (why: Ending) => () => {
      if (ending === "exit") ending = why;
      command.kill();
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
        command.kill();
        await pipes;
      }
      const text = output.text();
      const result = report(text, code, ending, timeoutMs, ctx.signal.reason);
      const wantedNetwork = !!prepared.offline && ending === "exit" && code !== 0 && looksOffline(text);
      return withAftermath(result, prepared, wantedNetwork, command.aftermath());
    } finally {
      clearTimeout(timer);
      await command.release();
      ctx.signal.removeEventListener("abort", onAbort);
      ctx.interrupt?.removeEventListener("abort", onInterrupt);
    }
  },
});

/** The sandbox's word on the command: that it ran read-only or failed for want of network, and what it left that counts as a denial. */
function withAftermath(result: { output: string; isError: boolean }, prepared: PreparedCommand, wantedNetwork: boolean, after: { notes: string[]; denied: boolean }) {
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
    lingering: `Exit code: ${code}. Background processes still holding the output were killed; start a job with background: true to keep it running.`,
    timeout: `Timed out after ${timeoutMs / 1000} s; the command and every process it started were killed.`,
    abort: `${abortedBecause(abortReason)}; the command and every process it started were killed.`,
    interrupt: "Stopped by the user (Ctrl-C); the command and every process it started were killed.",
  };
  const isError = ending === "timeout" || ending === "abort" || ending === "interrupt" || code !== 0;
  return { output: `${body}\n\n${notes[ending]}`, isError };
}
