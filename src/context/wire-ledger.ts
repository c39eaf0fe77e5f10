import type { Message } from "../session/messages.ts";
import { activeStart } from "../wire/serialise-input.ts";
import { wireEntry, type WireEntry } from "./wire-entry.ts";


/** Measures known without serialising (an earlier run's, `known-measures.ts`). */
export type KnownMeasures = {
  /** The entry of `messages[i]` for `model`, if known. */
  entry(messages: readonly Message[], i: number, model: string): WireEntry | undefined;
  /** What dropping the ledger's oldest `drop` exchanges leaves on the wire, as an earlier run made it, if known to hold for its entries as they are. */
  region(ledger: WireLedger, drop: number): KnownRegion | undefined;
};

/** A dropped region read back: each item's size, which of them are notes, and the items as the UTF-8 JSON of an array (`head`: the request begins with them). */
export type KnownRegion = { chars: readonly number[]; notes: readonly number[]; end: number; head: Uint8Array };

/** One response and the results of its calls (entry indices): dropped together or not at all. */
export type Exchange = { from: number; to: number };

/**
 * The history on the wire, measured message by message and kept between requests: each message's
 * items and sizes from the active start, with running sums. A request then costs what the newest
 * messages added, not the whole history: only the last message is measured again, and a response
 * whose tool message has gained results since (its outputs changed); the sums answer every "how
 * much would this save" in constant time. Reset when the history is not a continuation of
 * the one it measured (another session, a new `/compact` marker, another model).
 */
export type WireLedger = {
  /** Brings the ledger up to `messages` for a request to `model`; returns it. */
  sync(messages: readonly Message[], model: string): WireLedger;
  /** Each message's measure from the newest compaction marker (or the first message) on; one measured again is a new object, so caches derived from an entry can tell. */
  readonly entries: readonly WireEntry[];
  /** Characters of entries [0, k). */
  charsBefore(k: number): number;
  /** Calls in entries [0, k); calls are numbered in order from the active start. */
  callsBefore(k: number): number;
  /** Characters eliding calls [0, c) saves. */
  savingsBefore(c: number): number;
  /** Characters of the reasoning entries [0, k) replay. */
  reasoningBefore(k: number): number;
  /** The newest entry before k that is a response (-1 if none) and the newest with usage. */
  lastAssistantBefore(k: number): number;
  lastUsageBefore(k: number): number;
  readonly exchanges: readonly Exchange[];
  /** The model measured for, and the index in the history of entries[0]. */
  readonly model: string;
  readonly start: number;
  readonly known?: KnownMeasures;
};

export function createWireLedger(known?: KnownMeasures): WireLedger {
  let model = "";
  let messages: readonly Message[] = [];
  let start = 0;
  const entries: WireEntry[] = [];
  // Running sums: index k holds the total over entries [0, k).
  const chars = [0];
  const calls = [0];
  const reasoning = [0];
  const savings = [0]; // per call
  const lastAssistant = [-1];
  const lastUsage = [-1];
  const exchanges: Exchange[] = [];

  const truncate = (k: number) => {
    entries.length = k;
    for (const sums of [chars, calls, reasoning, lastAssistant, lastUsage]) sums.length = k + 1;
    savings.length = calls[k]! + 1;
    while (exchanges.length && exchanges.at(-1)!.to >= k) {
      const last = exchanges.at(-1)!;
      if (last.from < k) last.to = k - 1;
      else exchanges.pop();
    }
  };

  const add = (i: number) => {
    const k = entries.length;
    const entry = known?.entry(messages, i, model) ?? wireEntry(messages, i, model);
    const m = entry.message;
    entries.push(entry);
    chars.push(chars[k]! + entry.chars);
    reasoning.push(reasoning[k]! + entry.reasoningChars);
    calls.push(calls[k]! + entry.savings.length);
    for (const saved of entry.savings) savings.push(savings.at(-1)! + saved);
    lastAssistant.push(m.role === "assistant" ? k : lastAssistant[k]!);
    lastUsage.push(m.role === "assistant" && m.usage ? k : lastUsage[k]!);
    const open = exchanges.at(-1);
    if (m.role === "tool" && open && open.from === k - 1 && open.to === k - 1 && entries[k - 1]!.message.role === "assistant") open.to = k;
    else if (m.role === "assistant" || m.role === "tool") exchanges.push({ from: k, to: k });
  };

  /** How many entries of the last sync still hold for `next`: 0 when it continues something else. */
  const reusable = (next: readonly Message[], nextModel: string): number => {
    if (nextModel !== model || entries.length === 0 || next.length <= start || next[start] !== entries[0]!.message) return 0;
    let k = Math.min(entries.length, next.length - start) - 1;
    if (k > 0 && next[start + k - 1] !== entries[k - 1]!.message) return 0;
    // A response is measured again when the tool message after it has gained results since.
    while (k > 0 && entries[k - 1]!.resultsSeen !== resultsLength(next, start + k)) k--;
    return Math.max(k, 0);
  };

  const ledger: WireLedger = {
    sync(next, nextModel) {
      let k = reusable(next, nextModel);
      let from = start + k;
      if (k === 0) {
        model = nextModel;
        start = activeStart(next);
        from = start;
      }
      // A marker among the new messages starts the wire over from it.
      for (let i = next.length - 1; i > from; i--)
        if (next[i]!.role === "compaction") {
          start = from = i;
          k = 0;
          break;
        }
      messages = next;
      truncate(k);
      for (let i = from; i < next.length; i++) add(i);
      return ledger;
    },
    entries,
    charsBefore: (k) => chars[k]!,
    callsBefore: (k) => calls[k]!,
    savingsBefore: (c) => savings[c]!,
    reasoningBefore: (k) => reasoning[k]!,
    lastAssistantBefore: (k) => lastAssistant[k]!,
    lastUsageBefore: (k) => lastUsage[k]!,
    exchanges,
    ...(known ? { known } : {}),
    get model() {
      return model;
    },
    get start() {
      return start;
    },
  };
  return ledger;
}

const resultsLength = (messages: readonly Message[], i: number): number => {
  const next = messages[i];
  return next?.role === "tool" ? next.results.length : 0;
};
