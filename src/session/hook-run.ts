import { z } from "zod";

/** The moments a hook can run at, named as Claude Code names them so people can bring their scripts. */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "Notification"] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/**
 * One hook run as the session log keeps it: which event, which command, how it ended and what it
 * decided. `decision`: `continue` (no objection), `allow`, `ask`, `block`; `failure`: why the hook
 * itself failed (an exit other than 0 or 2, a timeout, JSON that does not parse), whatever that meant;
 * `feedback`: text it made join the history as a user message (a Stop hook's reason to go on).
 */
export const hookRunSchema = z.object({
  type: z.literal("hook"),
  event: z.enum(HOOK_EVENTS),
  command: z.string(),
  /** Where it came from: `config.json`, `.shiro/settings.json`, `.claude/settings.json` (or `.local`), a `--hooks` file, or `notify`. */
  source: z.string(),
  callId: z.string().optional(),
  /** Absent when it never exited on its own (timed out, could not start). */
  exit: z.number().int().optional(),
  decision: z.enum(["continue", "allow", "ask", "block"]),
  reason: z.string().optional(),
  failure: z.string().optional(),
  feedback: z.string().optional(),
  ms: z.number().nonnegative(),
  at: z.string(),
});

export type HookRun = z.infer<typeof hookRunSchema>;
export type HookDecision = HookRun["decision"];
