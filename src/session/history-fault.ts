import { toolCallsOf, type Message } from "./messages.ts";

/**
 * Why a history brought in whole (an import) is not one a run could have made, or undefined: each
 * tool message answers calls of the answer right before it, each at most once, and no call id is
 * used twice. A call with no result is allowed: a run stopped mid-tool leaves one (the wire says so).
 */
export function historyFault(messages: readonly Message[]): string | undefined {
  const ids = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const at = `message ${i + 1}`;
    if (m.role === "assistant")
      for (const call of toolCallsOf(m)) {
        if (ids.has(call.callId)) return `${at} uses the call id ${call.callId} a second time`;
        ids.add(call.callId);
      }
    if (m.role !== "tool") continue;
    const before = messages[i - 1];
    if (before?.role !== "assistant") return `${at} holds tool results, but no answer with calls comes right before it`;
    const calls = new Set(toolCallsOf(before).map((c) => c.callId));
    const answered = new Set<string>();
    for (const r of m.results) {
      if (!calls.has(r.callId)) return `${at} holds a result for ${r.callId}, which the answer before it did not call`;
      if (answered.has(r.callId)) return `${at} holds a second result for ${r.callId}`;
      answered.add(r.callId);
    }
  }
  return undefined;
}
