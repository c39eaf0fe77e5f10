import type { HookEventName } from "../session/hook-run.ts";
import type { SandboxLevel } from "../session/sandbox-level.ts";
import { ToolError } from "../tools/tool.ts";
import type { CommandSandbox, PreparedCommand } from "../process/prepared-command.ts";
import type { HookDefinition } from "./hook-config.ts";

/**
 * The command sandbox at a level, as the run has it (the runtime passes it down: hooks/ sits below
 * sandbox/), or undefined where none is in force (`--sandbox off`, no backend that can run).
 */
export type HookSandbox = (level: SandboxLevel) => Promise<CommandSandbox | undefined>;

/**
 * How far a hook may write: a PostToolUse hook is where formatters run, so the project is writable to
 * it (as to an approved command: secrets masked, git's config and hooks read-only); every other
 * event's hooks — guards, context, notifications — only read. Neither reaches past the project: what
 * a hook loads (a Makefile, a sourced script, package.json's scripts) the model may have rewritten.
 */
export const hookLevel = (event: HookEventName): SandboxLevel => (event === "PostToolUse" ? "workspace-write" : "read-only");

/** A command run as it is: nothing to check after it. */
const bare = (argv: string[]): PreparedCommand => ({ argv, check: () => ({ notes: [], denied: false }) });

/**
 * A hook's `bash -c` made ready to run where it belongs: in the sandbox at its event's level; outside
 * only when the person's own config said `"sandbox": false`, or — the person's hooks alone — where no
 * sandbox is in force (`--sandbox off`), as commands then run. A project's hook never runs bare: then
 * it gets why, as a failure to start.
 */
export async function prepareHook(hook: HookDefinition, argv: string[], cwd: string, sandbox: HookSandbox): Promise<PreparedCommand | { why: string }> {
  if (hook.outside) return bare(argv);
  const box = await sandbox(hookLevel(hook.event));
  if (!box) return hook.project ? { why: "a project's hooks run only in the sandbox, and none is in force here" } : bare(argv);
  try {
    return box.prepare(argv, cwd, hook.command);
  } catch (err) {
    // A sandbox that cannot be trusted now (its program swapped) runs nothing, hooks included.
    if (err instanceof ToolError) return { why: err.message };
    throw err;
  }
}
