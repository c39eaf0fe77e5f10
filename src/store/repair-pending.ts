import { toolCallsOf, type Message, type ToolResult } from "../agent/messages.ts";
// One text for "this call never finished", whether the gap is repaired on resume or filled on the wire.
import { INTERRUPTED_OUTPUT } from "../wire/serialise-input.ts";

/**
 * For a resumed session: every tool call without a result (the process died mid-tool) gets a
 * synthetic error result saying so, so the model sees the gap and the call is never silently re-run.
 * Returns new messages and the repaired call ids; the input is not changed.
 */
export function repairPending(messages: readonly Message[]): { messages: Message[]; repaired: string[] } {
  const out: Message[] = [];
  const repaired: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== "assistant") continue;
    const calls = toolCallsOf(m);
    if (calls.length === 0) continue;
    const next = messages[i + 1];
    const existing = next?.role === "tool" ? next.results : [];
    const missing: ToolResult[] = calls
      .filter((c) => !existing.some((r) => r.callId === c.callId))
      .map((c) => ({ callId: c.callId, output: INTERRUPTED_OUTPUT, isError: true }));
    if (missing.length === 0) continue;
    repaired.push(...missing.map((r) => r.callId));
    out.push({ role: "tool", results: [...existing, ...missing] });
    if (next?.role === "tool") i++;
  }
  return { messages: out, repaired };
}
