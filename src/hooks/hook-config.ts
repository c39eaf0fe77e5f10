import { z } from "zod";
import type { HookEventName } from "../session/hook-run.ts";
import { closedObject } from "../text/closed-object.ts";

/** One command to run, as Claude Code writes it; `onFailure: "allow"` lets a failing PreToolUse hook's call go on. */
const hookEntrySchema = closedObject({
  type: z.literal("command", { error: 'must be "command" (the only kind of hook)' }),
  command: z.string().min(1, "must be the command to run (bash -c)"),
  /** Seconds before the hook is killed (its whole process group). */
  timeout: z.number().positive("must be a number of seconds, > 0").optional(),
  onFailure: z.enum(["block", "allow"]).optional(),
  /** false: run outside the sandbox, as the person — heeded only in the person's own config (load-hooks.ts). */
  sandbox: z.boolean().optional(),
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
  /** It runs outside the sandbox, as the person: their own config said `"sandbox": false`. */
  outside?: true;
  /** A project's (its `.shiro/settings.json`, a `--hooks` file inside it): never run outside a sandbox. */
  project?: true;
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
        ...(hook.sandbox === false ? { outside: true as const } : {}),
      })),
    ),
  );
}

/** One `notify` entry: the command alone, or with `"sandbox": false` to reach the desktop (a notifier's bus or socket) from outside the sandbox. */
export const notifyEntrySchema = z.union([z.string().min(1, "must be a command to run"), closedObject({ command: z.string().min(1, "must be a command to run"), sandbox: z.boolean().optional() })]);
export type NotifyEntry = z.infer<typeof notifyEntrySchema>;

/** `notify: ["cmd", …]`: each command runs when a run stops and when an approval waits; it never blocks. */
export const notifyDefinitions = (entries: readonly NotifyEntry[]): HookDefinition[] =>
  entries.flatMap((entry) => {
    const { command, sandbox } = typeof entry === "string" ? { command: entry, sandbox: true } : entry;
    return (["Stop", "Notification"] as const).map((event) => ({
      event,
      command,
      timeoutS: DEFAULT_HOOK_TIMEOUT_S,
      onFailure: "allow" as const,
      source: "notify",
      ...(sandbox === false ? { outside: true as const } : {}),
    }));
  });
