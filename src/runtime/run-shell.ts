import { runToolCall } from "../agent/run-tool-call.ts";
import type { ShellOutcome } from "../commands/saved-commands.ts";
import type { Authorize } from "../tools/authorize.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { ToolHost } from "../tools/tool-host.ts";

export type ShellDeps = { tools: () => readonly AnyTool[]; authorize: Authorize; root: string; host: ToolHost };

/**
 * A saved command's `` !`cmd` ``, run as a `bash` call the model might make: validated, through the
 * guard, the plugins, the rules and asking (or print mode's refusal), in the sandbox, its output
 * redacted. Not logged as a call (no model asked for it): its output is logged in the prompt it fills.
 * The output is the command's own, as streamed: not the notes for the model the result ends with.
 */
export function createShellRunner(deps: ShellDeps): (command: string, signal: AbortSignal) => Promise<ShellOutcome> {
  let count = 0;
  return async (command, signal) => {
    const call = { type: "tool-call" as const, callId: `command-${++count}`, name: "bash", arguments: JSON.stringify({ command }) };
    const events = runToolCall(call, { tools: deps.tools(), commit: () => {}, authorize: deps.authorize, root: deps.root, signal, host: deps.host });
    let output = "";
    for (;;) {
      const next = await events.next();
      if (next.done) return next.value.denied ? { output, failed: true, refused: next.value.output } : { output, failed: next.value.isError };
      if (next.value.type === "tool-output") output += next.value.chunk;
    }
  };
}
