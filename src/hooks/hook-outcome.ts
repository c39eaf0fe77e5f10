import { z } from "zod";
import type { HookDecision, HookEventName } from "../session/hook-run.ts";
import type { HookDefinition } from "./hook-config.ts";

/**
 * How a hook's process ended: its exit code (absent when killed at its timeout or never started), what
 * it printed, and what the sandbox had to say once it ended (a secret file it made, writes gone with it).
 */
export type HookExit = { exit?: number; stdout: string; stderr: string; timedOut: boolean; spawnError?: string; notes?: string[] };

/** What a run meant: the decision, the reason the model (or the person) reads, why the hook failed, context it adds. */
export type HookOutcome = { decision: HookDecision; reason?: string; failure?: string; context?: string };

const permission = z.enum(["allow", "deny", "ask"]);

/** The JSON a hook may print on exit 0 (Claude Code's fields; others are let through unread). */
const outputSchema = z.looseObject({
  decision: z.enum(["approve", "allow", "block", "deny", "ask"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: permission.optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** A failing hook of these stops what it guards (a crash never lets a call through); the others only warn. */
const failsClosed = (event: HookEventName) => event === "PreToolUse" || event === "UserPromptSubmit";

const DECISIONS: Record<string, HookDecision> = { approve: "allow", allow: "allow", block: "block", deny: "block", ask: "ask" };

/**
 * Exit 2 blocks with stderr as the reason; exit 0 goes on, unless stdout is JSON carrying a decision.
 * Anything else — another exit, a timeout, stdout that starts as JSON and is not (or is not the
 * shape it claims) — is a failure: it blocks a PreToolUse call unless the hook says `onFailure: "allow"`.
 */
export function hookOutcome(hook: Pick<HookDefinition, "event" | "command" | "onFailure" | "timeoutS">, run: HookExit): HookOutcome {
  const failed = (failure: string): HookOutcome =>
    failsClosed(hook.event) && hook.onFailure !== "allow"
      ? { decision: "block", failure, reason: `the ${hook.event} hook \`${hook.command}\` ${failure}, so this was blocked (a hook that fails blocks; "onFailure": "allow" on it lets a failure pass)` }
      : { decision: "continue", failure };
  if (run.spawnError !== undefined) return failed(`could not start (${run.spawnError})`);
  if (run.timedOut) return failed(`did not finish within ${hook.timeoutS} s and was killed`);
  if (run.exit === undefined) return failed("was killed by a signal");
  if (run.exit === 2) return { decision: "block", reason: run.stderr.trim() || `the ${hook.event} hook \`${hook.command}\` exited 2` };
  if (run.exit !== 0) return failed(`exited ${run.exit}${run.stderr.trim() ? `: ${firstLines(run.stderr)}` : ""}`);
  const out = run.stdout.trim();
  if (!out.startsWith("{")) return out && (hook.event === "UserPromptSubmit" || hook.event === "SessionStart") ? { decision: "continue", context: out } : { decision: "continue" };
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch (err) {
    return failed(`printed output that starts as JSON but is not (${(err as Error).message})`);
  }
  const parsed = outputSchema.safeParse(json);
  if (!parsed.success) return failed(`printed JSON that is not a hook's answer (${z.prettifyError(parsed.error).replace(/\s*\n\s*/g, " ")})`);
  const { decision, reason, hookSpecificOutput: specific } = parsed.data;
  const decided = specific?.permissionDecision ?? decision;
  const why = specific?.permissionDecisionReason ?? reason;
  const context = specific?.additionalContext;
  return {
    decision: decided ? DECISIONS[decided]! : "continue",
    ...(why ? { reason: why } : decided === "deny" || decided === "block" ? { reason: `the ${hook.event} hook \`${hook.command}\` said ${decided}` } : {}),
    ...(context ? { context } : {}),
  };
}

const firstLines = (text: string) => text.trim().split("\n").slice(0, 3).join(" / ").slice(0, 300);
