import type { Usage } from "../session/messages.ts";
import { formatCount } from "../text/format-count.ts";

/** Tokens used, as the session list and the inspector show them: in (cached) · out (reasoning). */
export const usageText = (u: Usage): string =>
  `${formatCount(u.inputTokens)} in (${formatCount(u.cachedTokens)} cached) · ` +
  `${formatCount(u.outputTokens)} out (${formatCount(u.reasoningTokens)} reasoning)`;

