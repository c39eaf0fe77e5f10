import { z } from "zod";
import type { HookEventName } from "../session/hook-run.ts";
import { closedObject } from "../store/closed-object.ts";

/** One command to run, as Claude Code writes it; `onFailure: "allow"` lets a failing PreToolUse hook's call go on. */
const hookEntrySchema = closedObject({
  type: z.literal("command", { error: 'must be "command" (the only kind of hook)' }),
  command: z.string().min(1, "must be the command to run (bash -c)"),
  /** Seconds before the hook is killed (its whole process group). */
  timeout: z.number().positive("must be a number of seconds, > 0").optional(),
  onFailure: z.enum(["block", "allow"]).optional(),
});

/** The hooks to run for tools whose name the matcher fits (`bash`, `edit_file|write_file`, `mcp__github__*`; none or `*`: every tool). */
const matcherGroupSchema = closedObject({ matcher: z.string().optional(), hooks: z.array(hookEntrySchema) });
const groups = z.array(matcherGroupSchema).optional();

/** `hooks` in config.json, a project's `.shiro/settings.json` or a `--hooks` file: event name → matcher groups. */
export const hooksSchema = closedObject({
  PreToolUse: groups,
  PostToolUse: groups,
  UserPromptSubmit: groups,
  Stop: groups,
  SessionStart: groups,
  Notification: groups,
});
export type HooksConfig = z.infer<typeof hooksSchema>;

/** A project's `.shiro/settings.json` (and a `--hooks` file): the same shape, `hooks` inside. */
export const hookFileSchema = closedObject({ hooks: hooksSchema.optional() });

export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** One hook ready to run: its event, the tools it is for, the command and where it was configured. */
export type HookDefinition = {
  event: HookEventName;
  matcher?: string;
  command: string;
  timeoutS: number;
  onFailure: "block" | "allow";
  source: string;
};

/** The config's nested shape, flattened in the order written (the order hooks run in). */
export function hookDefinitions(config: HooksConfig | undefined, source: string): HookDefinition[] {
  if (!config) return [];
  return (Object.keys(config) as HookEventName[]).flatMap((event) =>
    (config[event] ?? []).flatMap((group) =>
      group.hooks.map((hook) => ({
        event,
        ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
        command: hook.command,
        timeoutS: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
        onFailure: hook.onFailure ?? "block",
        source,
      })),
    ),
  );
}

/** `notify: ["cmd", …]`: each command runs when a run stops and when an approval waits; it never blocks. */
export const notifyDefinitions = (commands: readonly string[]): HookDefinition[] =>
  commands.flatMap((command) =>
    (["Stop", "Notification"] as const).map((event) => ({ event, command, timeoutS: DEFAULT_HOOK_TIMEOUT_S, onFailure: "allow" as const, source: "notify" })),
  );
