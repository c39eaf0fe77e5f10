import type { Message } from "../session/messages.ts";
import { activeStart, INTERRUPTED_OUTPUT } from "../wire/serialise-input.ts";

/** The usual rough rule: a token is about four characters. */
export const tokensFromChars = (chars: number): number => Math.ceil(chars / 4);
/** The same rule the other way: how many characters a token budget holds. */
export const charsFromTokens = (tokens: number): number => tokens * 4;

// JSON framing of one input item ({"type":"function_call","call_id":…}); only its order of magnitude matters.
const ITEM_OVERHEAD = 60;

/**
 * Characters one message adds to the wire payload for `model`, counted without serialising
 * (reasoning only counts when it would be replayed to that model).
 */
export function messageChars(m: Message, model: string): number {
  switch (m.role) {
    case "user":
      return m.text.length + ITEM_OVERHEAD;
    case "compaction":
      return m.summary.length + 2 * ITEM_OVERHEAD;
    case "tool": {
      let chars = 0;
      for (const r of m.results) chars += r.output.length + r.callId.length + ITEM_OVERHEAD;
      return chars;
    }
    case "assistant": {
      let chars = 0;
      for (const p of m.parts) {
        if (p.type === "text") chars += p.text.length + ITEM_OVERHEAD;
        else if (p.type === "tool-call") chars += p.arguments.length + p.name.length + p.callId.length + ITEM_OVERHEAD;
        else if (p.encrypted && m.model === model) {
          chars += p.encrypted.length + ITEM_OVERHEAD;
          for (const s of p.summary) chars += s.length;
        }
      }
      return chars;
    }
  }
}

/** Characters of the synthetic outputs the serialiser adds for calls that have no result. */
function pendingChars(messages: readonly Message[], from: number): number {
  let chars = 0;
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    const next = messages[i + 1];
    const results = next?.role === "tool" ? next.results : [];
    for (const p of m.parts)
      if (p.type === "tool-call" && !results.some((r) => r.callId === p.callId)) chars += INTERRUPTED_OUTPUT.length + ITEM_OVERHEAD;
  }
  return chars;
}

/** Characters of the `input` the serialiser would build from `messages` (from the newest marker on). */
export function wireChars(messages: readonly Message[], model: string): number {
  const start = activeStart(messages);
  let chars = pendingChars(messages, start);
  for (let i = start; i < messages.length; i++) chars += messageChars(messages[i]!, model);
  return chars;
}

export type EstimateOptions = { model: string; instructionsChars: number };

/**
 * Tokens of the next request for the full `messages`. The last real `usage.inputTokens` plus
 * chars/4 of what was added since is the better figure when that request was sent whole; when it
 * was compacted it is too small, so the larger of it and chars/4 of the whole payload is used.
 */
export function estimateNextRequest(messages: readonly Message[], opts: EstimateOptions): number {
  const start = activeStart(messages);
  const whole = tokensFromChars(wireChars(messages, opts.model) + opts.instructionsChars);
  for (let i = messages.length - 1; i > start; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.usage) continue;
    let added = pendingChars(messages, i);
    for (let j = i; j < messages.length; j++) added += messageChars(messages[j]!, opts.model);
    return Math.max(whole, m.usage.inputTokens + tokensFromChars(added));
  }
  return whole;
}
