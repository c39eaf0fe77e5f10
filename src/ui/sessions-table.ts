import type { Usage } from "../session/messages.ts";
import { alignColumns } from "../text/align-columns.ts";
import type { SessionTotals } from "../pricing/session-totals.ts";
import type { SessionMeta } from "../store/session-store.ts";
import { plural } from "../text/plural.ts";
import { compactCount, costText, usageText } from "../pricing/usage-text.ts";

export { compactCount, costText, usageText };
import { runStateText, type RunState } from "../session/run-state.ts";

/** Pure renderers for `/sessions`, `/cost` and `shiro sessions --json`. */

/** A UUIDv7's creation time to the millisecond ("019a2c82-6e70"): the first 8 characters change only once a minute. */
export const ID_PREFIX_CHARS = 13;
export const SESSIONS_SHOWN = 15;

export function ageText(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86400)}d ago`;
}

const tokensOf = (u: Usage) => u.inputTokens + u.outputTokens;

/**
 * Each id's shortest prefix (at least ID_PREFIX_CHARS) that no other id shares, so what the table
 * shows is what `-r` accepts, even for sessions made in the same millisecond.
 */
export function uniquePrefixes(ids: readonly string[]): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const common = (a: string, b = "") => {
    let n = 0;
    while (n < a.length && a[n] === b[n]) n++;
    return n;
  };
  return new Map(
    sorted.map((id, i) => [id, id.slice(0, Math.max(ID_PREFIX_CHARS, common(id, sorted[i - 1]) + 1, common(id, sorted[i + 1]) + 1))]),
  );
}

/** Titles are never clipped below this, however narrow the terminal. */
const MIN_TITLE = 12;

/**
 * The newest sessions, one aligned row each: id prefix, age, title, what became of the last run,
 * messages, tokens, cost, and with `folders` (sessions of several folders) the folder last. Given
 * the terminal's `columns`, long titles are clipped so each row stays on one line.
 */
export function sessionsTable(sessions: readonly SessionMeta[], now = new Date(), limit = SESSIONS_SHOWN, columns = Infinity, opts: { folders?: boolean } = {}): string {
  if (sessions.length === 0) return "no saved sessions";
  const prefixes = uniquePrefixes(sessions.map((s) => s.id));
  const rows = sessions.slice(0, limit).map((s) => [
    prefixes.get(s.id)!,
    ageText(s.updatedAt, now),
    s.title || "(no prompt)",
    runStateText(s.state),
    plural(s.messageCount, "msg"),
    `${compactCount(tokensOf(s.usage))} tok`,
    costText(s.costUsd),
    ...(opts.folders ? [s.cwd] : []),
  ]);
  const header = ["id", "age", "title", "state", "messages", "tokens", "cost", ...(opts.folders ? ["folder"] : [])];
  const table = alignColumns([header, ...rows], { right: [1, 4, 5, 6], width: columns - 1, clip: { column: 2, min: MIN_TITLE } });
  const more = sessions.length > limit ? `\n… and ${sessions.length - limit} older (shiro sessions lists all)` : "";
  return table.join("\n") + more;
}

/** `/cost`: the session's tokens and what they cost, or why the cost is unknown. */
export function costReport(totals: SessionTotals): string {
  const cost =
    totals.costUsd === undefined
      ? `cost: unknown (no price for ${totals.unpricedModels.join(", ")})`
      : `cost: ${costText(totals.costUsd)}`;
  return `tokens: ${usageText(totals.usage)}\n${cost}`;
}

/** One entry of `shiro sessions --json`; a stable shape for scripts. */
export type SessionJson = {
  id: string;
  createdAt: string;
  updatedAt: string;
  cwd: string;
  model: string;
  title: string;
  messages: number;
  tokens: { input: number; cached: number; output: number; reasoning: number };
  costUsd: number | null;
  /** What became of the last run: answered, no-answer, incomplete, interrupted or damaged. */
  state: RunState;
};

export const sessionsJson = (sessions: readonly SessionMeta[]): SessionJson[] =>
  sessions.map((s) => ({
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    cwd: s.cwd,
    model: s.model,
    title: s.title,
    messages: s.messageCount,
    tokens: { input: s.usage.inputTokens, cached: s.usage.cachedTokens, output: s.usage.outputTokens, reasoning: s.usage.reasoningTokens },
    costUsd: s.costUsd,
    state: s.state,
  }));
