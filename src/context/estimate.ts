import type { WireLedger } from "./wire-ledger.ts";

/** The usual rough rule: a token is about four characters. */
export const tokensFromChars = (chars: number): number => Math.ceil(chars / 4);
/** The same rule the other way: how many characters a token budget holds. */
export const charsFromTokens = (tokens: number): number => tokens * 4;

/**
 * Tokens of the next request for a ledger's whole history, with `instructionsChars` of the request
 * outside it. The last real `usage.inputTokens` plus chars/4 of what was added since is the better
 * figure when that request was sent whole; when it was compacted it is too small, so the larger of
 * it and chars/4 of the whole payload is used.
 */
export function estimateNextRequest(ledger: WireLedger, instructionsChars: number): number {
  const n = ledger.entries.length;
  const whole = tokensFromChars(ledger.charsBefore(n) + instructionsChars);
  const k = ledger.lastUsageBefore(n);
  const answer = ledger.entries[k]?.message;
  if (answer?.role !== "assistant" || !answer.usage) return whole;
  return Math.max(whole, answer.usage.inputTokens + tokensFromChars(ledger.charsBefore(n) - ledger.charsBefore(k)));
}
