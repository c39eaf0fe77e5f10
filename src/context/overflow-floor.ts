import { noteLineChars } from "./drop-exchanges.ts";
import type { WireLedger } from "./wire-ledger.ts";

/**
 * Characters below which no compaction plan can bring the history: every plan sends each user
 * message and marker whole, and of each exchange at least its items with every call elided and no
 * reasoning — or, dropped, its note lines. When even this overflows, only a summary helps, and the
 * plans need not be made (a long resume's first request is that summary). `changes`: the most
 * thorough plan (the last tried) surely changes a message — it drops reasoning before the newest
 * response or elides a call before the newest two — so compaction reports what it did.
 */
export function historyFloor(ledger: WireLedger): { chars: number; changes: boolean } {
  const { entries, exchanges } = ledger;
  const n = entries.length;
  const latest = ledger.lastAssistantBefore(n);
  const keepFrom = ledger.callsBefore(n) - 2;
  let chars = 0;
  let changes = false;
  let k = 0;
  for (let x = 0; x < exchanges.length; x++) {
    const { from, to } = exchanges[x]!;
    for (; k < from; k++) chars += entries[k]!.chars;
    let kept = 0;
    for (; k <= to; k++) {
      const entry = entries[k]!;
      if (entry.hasReasoning && k < latest) changes = true;
      kept += entry.floorChars;
      if (entry.firstElided >= 0 && ledger.callsBefore(k) + entry.firstElided < keepFrom) changes = true;
    }
    chars += Math.min(kept, noteLineChars(ledger, x));
  }
  for (; k < n; k++) chars += entries[k]!.chars;
  return { chars, changes };
}
