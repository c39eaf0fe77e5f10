import type { Message } from "../session/messages.ts";
import { activeStart } from "../wire/serialise-input.ts";

/**
 * Drops the reasoning of every response but the latest one, in place (same indices). The latest
 * response's reasoning is the one the model still builds on; older reasoning is the bulkiest part
 * of the history that the model's own text and calls already summarise.
 */
export function dropReasoning(messages: readonly Message[]): Message[] {
  const out = messages.slice();
  let latest = messages.length - 1;
  while (latest >= 0 && messages[latest]!.role !== "assistant") latest--;
  for (let i = activeStart(messages); i < latest; i++) {
    const m = messages[i]!;
    if (m.role === "assistant" && m.parts.some((p) => p.type === "reasoning"))
      out[i] = { ...m, parts: m.parts.filter((p) => p.type !== "reasoning") };
  }
  return out;
}
