import { addUsage, emptyUsage, toolCallsOf, type Usage } from "../session/messages.ts";
import { runStateText } from "../session/run-state.ts";
import type { ResponseSummary } from "../session/message-schema.ts";
import { compactCount, costText, usageText } from "../pricing/usage-text.ts";
import { titleOf } from "../store/session-title.ts";
import { clipLine } from "../text/one-line.ts";
import type { InspectedCall, InspectedHook, InspectedTurn } from "./log-turns.ts";

/** What the overview and the turn list share: sums, states and outcomes as they read in a row. */

export type CallSums = { usage: Usage; /** undefined when a call with usage has no price. */ costUsd: number | undefined };

export function sumCalls(calls: readonly InspectedCall[]): CallSums {
  let usage = emptyUsage();
  let cost: number | undefined = 0;
  for (const call of calls) {
    const used = call.response?.usage;
    if (!used) continue;
    usage = addUsage(usage, used);
    cost = cost === undefined || call.costUsd === undefined ? undefined : cost + call.costUsd;
  }
  return { usage, costUsd: cost };
}

export const tokensText = (usage: Usage): string => `${compactCount(usage.inputTokens + usage.outputTokens)} tok`;

export const sumsText = (sums: CallSums): [string, string] => [tokensText(sums.usage), costText(sums.costUsd)];

/** `shiro sessions --json`'s token shape. */
export const tokensJson = (u: Usage) => ({ input: u.inputTokens, cached: u.cachedTokens, output: u.outputTokens, reasoning: u.reasoningTokens });

export const turnStateText = (t: InspectedTurn): string => (t.undoneAt !== undefined ? "undone" : t.imported ? "imported" : runStateText(t.state)) + (t.plan ? " · plan" : "");

/** A turn's mode, for scripts: `plan` when its prompt came in plan mode. */
export const turnModeJson = (t: InspectedTurn): "plan" | "default" => (t.plan ? "plan" : "default");

const ERROR_CHARS = 60;

/** How a call ended, in a few words: the tools it called, an answer, or why there was none. */
export function outcomeText(call: InspectedCall): string {
  const r = call.response;
  if (!r) return "no response (the process stopped first)";
  if (r.status === "error") return r.error ? `error: ${clipLine(r.error, ERROR_CHARS)}` : "error";
  if (r.status === "aborted") return "aborted";
  const tools = call.answer ? toolCallsOf(call.answer).map((p) => p.name) : [];
  if (r.status === "incomplete") return `incomplete (${call.answer?.incomplete ?? "cut short"})`;
  return tools.length ? `→ ${tools.join(", ")}` : "→ answer";
}

/** The call's outcome for scripts: its status, the tools it called, its error. */
export const outcomeJson = (call: InspectedCall) => ({
  status: call.response?.status ?? null,
  ...(call.answer ? { toolCalls: toolCallsOf(call.answer).map((p) => p.name) } : {}),
  ...(call.response?.error !== undefined ? { error: call.response.error } : {}),
});

export const promptOf = (t: InspectedTurn): string => (t.text ? titleOf([{ role: "user", text: t.text }]) : "(no prompt)");

/** A call's response on one line: its status, response id, tokens, or its error. */
export function responseText(r: ResponseSummary | undefined): string {
  if (!r) return "response: none recorded (the process stopped before it arrived)";
  const parts = [`response: ${r.status}`];
  if (r.responseId) parts.push(r.responseId);
  if (r.usage) parts.push(usageText(r.usage));
  if (r.error) parts.push(r.error);
  return parts.join(" · ");
}

export const CLIP_CHARS = 200;

/** Long strings shortened in place of the value, so what is printed stays valid JSON. */
export function clipStrings(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > CLIP_CHARS ? `${value.slice(0, CLIP_CHARS)}… [+${value.length - CLIP_CHARS} chars]` : value;
  }
  if (Array.isArray(value)) return value.map(clipStrings);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipStrings(v)]));
  return value;
}

/** One hook run: `hook PreToolUse bash · ./guard.sh · exit 2 · block · 12 ms: the reason`. */
export function hookLine(h: InspectedHook): string {
  const head = ["hook " + h.event + (h.tool ? ` ${h.tool}` : ""), h.command, h.exit === undefined ? "no exit" : `exit ${h.exit}`, h.decision, `${h.ms} ms`].join(" · ");
  const why = h.reason ?? h.failure;
  return why ? `${head}: ${clipLine(why, 160)}` : head;
}

/** A hook run for `--json`: as the log keeps it, with the tool's name. */
export const hookJson = ({ type: _, ...run }: InspectedHook) => run;
