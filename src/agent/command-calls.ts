import { runToolCall } from "../loop/run-tool-call.ts";
import type { ShellOutcome } from "../commands/saved-commands.ts";
import type { Authorize, TurnAllow } from "../tools/authorize-request.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import type { ToolHooks } from "../hooks/create-hooks.ts";

/**
 * `hooks`: the person's PreToolUse and PostToolUse hooks guard a command's `bash` as they guard the
 * model's. `inTurn`: runs it inside the checkpoint of the turn it fills the prompt of.
 */
export type CommandCallDeps = { tools: () => readonly AnyTool[]; authorize: Authorize; root: string; host: ToolHost; hooks?: ToolHooks; inTurn: <T>(run: () => Promise<T>) => Promise<T> };

/**
 * What a saved command does, done as the model's own calls are. A `` !`cmd` `` is a `bash` call:
 * validated, through the PreToolUse hooks, the guard, the plugins, the rules and asking (or print
 * mode's refusal), in the sandbox, its output redacted. Not logged as a call (no model asked for
 * it): its output is logged in the prompt it fills, and it is the command's own, as streamed, not
 * the notes for the model the result ends with. An `@path` is judged as a `read_file` of it would be (asking, in the REPL, for
 * a file outside the project).
 */
export function createCommandCalls(deps: CommandCallDeps) {
  let count = 0;
  const callId = () => `command-${++count}`;
  async function runCommand(command: string, signal: AbortSignal, allows: readonly TurnAllow[] | undefined): Promise<ShellOutcome> {
    const call = { type: "tool-call" as const, callId: callId(), name: "bash", arguments: JSON.stringify({ command }) };
    const authorize = withAllows(deps.authorize, allows);
    const events = runToolCall(call, { tools: deps.tools(), commit: () => {}, authorize, root: deps.root, signal, host: deps.host, ...(deps.hooks ? { hooks: deps.hooks } : {}) });
    let output = "";
    for (;;) {
      const next = await events.next();
      if (next.done) return next.value.denied ? { output, failed: true, refused: next.value.output } : { output, failed: next.value.isError };
      if (next.value.type === "tool-output") output += next.value.chunk;
    }
  }
  return {
    // What it writes is the coming turn's, so `undo` of that turn puts it back.
    run: (command: string, signal: AbortSignal, allows?: readonly TurnAllow[]): Promise<ShellOutcome> => deps.inTurn(() => runCommand(command, signal, allows)),
    toolNames: () => deps.tools().map((tool) => tool.name),
    /** Why `read_file` would not be let read `path`; undefined when it would. */
    async readRefused(path: string): Promise<string | undefined> {
      const tool = deps.tools().find((t) => t.name === "read_file")!;
      const verdict = await deps.authorize({ tool, args: tool.schema.parse({ path }), callId: callId(), root: deps.root });
      return verdict.allowed ? undefined : verdict.reason;
    },
  };
}

/** The gate with a saved command's approvals for its turn (`allowed-tools`) added to every call it judges. */
export const withAllows = (authorize: Authorize, allows: readonly TurnAllow[] | undefined): Authorize =>
  allows?.length ? (request) => authorize({ ...request, allows }) : authorize;
