import type { Message } from "../session/messages.ts";
import type { SessionState } from "../session/reduce-session.ts";
import { pricesKey } from "../pricing/cost.ts";
import { sessionTotals, type SessionTotals } from "../pricing/session-totals.ts";
import type { IndexEntry } from "./session-index.ts";

type Summed = { count: number; last: Message | undefined; totals: SessionTotals };

/**
 * Each session's totals as last summed here — or as its listing entry gave them, for the very log
 * listed — to go on from: a long session's listing is not summed over its whole history at every
 * turn, nor before a resume's first request.
 */
export function createTotalsMemo() {
  const summed = new Map<string, Summed>();
  return {
    /** A session opened from its listing `entry`, its log `bytes` long as read: the entry's totals are its messages' when it was listed from this very log, under these prices. */
    listed(entry: IndexEntry, bytes: number, state: SessionState) {
      if (entry.bytes !== bytes || entry.messageCount !== state.messages.length || entry.prices !== pricesKey()) return;
      summed.set(state.id, { count: state.messages.length, last: state.messages.at(-1), totals: { usage: entry.usage, costUsd: entry.costUsd ?? undefined, unpricedModels: [] } });
    },
    /** The session's totals now: summed on from where they were while the messages summed are still these (an undo takes some back). */
    of(state: SessionState): SessionTotals {
      const { messages } = state;
      const memo = summed.get(state.id);
      const from = memo && memo.count <= messages.length && messages[memo.count - 1] === memo.last ? { ...memo.totals, count: memo.count } : undefined;
      const totals = sessionTotals(messages, from);
      summed.set(state.id, { count: messages.length, last: messages.at(-1), totals });
      return totals;
    },
  };
}
