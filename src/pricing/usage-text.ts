import type { Usage } from "../session/messages.ts";
import { formatCount } from "../text/format-count.ts";

/** Tokens used, as the session list and the inspector show them: in (cached) · out (reasoning). */
export const usageText = (u: Usage): string =>
  `${formatCount(u.inputTokens)} in (${formatCount(u.cachedTokens)} cached) · ` +
  `${formatCount(u.outputTokens)} out (${formatCount(u.reasoningTokens)} reasoning)`;

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Dollars as a listing shows them: "?" for no known price, four decimals under a cent. */
export const costText = (usd: number | null | undefined): string =>
  usd === null || usd === undefined ? "?" : usd === 0 ? "$0" : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
