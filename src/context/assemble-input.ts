import type { ResponseInputItem } from "openai/resources/responses/responses";
import { droppedRegion } from "./drop-exchanges.ts";
import type { WireLedger } from "./wire-ledger.ts";

/** What compaction decided for one request; every step keeps calls and results paired. */
export type WirePlan = {
  /** Calls [0, cut) (counted from the active start) have their large outputs and arguments elided. */
  cut: number;
  /** Every response but the latest is sent without its reasoning. */
  dropReasoning: boolean;
  /** The oldest exchanges left out, behind notes of what they did. */
  drop: number;
};

export const NO_COMPACTION: WirePlan = { cut: 0, dropReasoning: false, drop: 0 };

/**
 * The `input` a plan makes of a ledger's history, from each message's measured items: `chars` is
 * what they add to the body, `unchanged` how many of the messages went on the wire as they are.
 * `head`: a dropped region read back from an earlier run comes first as the JSON it was sent as,
 * and `items` are those after it.
 */
export function assembleInput(ledger: WireLedger, plan: WirePlan): { items: ResponseInputItem[]; head?: Uint8Array; chars: number; unchanged: number } {
  const { entries } = ledger;
  const items: ResponseInputItem[] = [];
  let head: Uint8Array | undefined;
  let chars = 0;
  let unchanged = 0;
  let k = 0;
  if (plan.drop > 0) {
    const region = droppedRegion(ledger, plan.drop);
    if (region.readBack) head = region.readBack.head;
    else for (const slot of region.items) items.push(slot.item);
    chars = region.chars;
    unchanged = region.unchanged;
    k = region.end;
  }
  const latest = ledger.lastAssistantBefore(entries.length);
  // Whether the outputs of the response just before were stubbed: then its tool message changed.
  let stubbed = false;
  for (; k < entries.length; k++) {
    const entry = entries[k]!;
    const role = entry.message.role;
    if (role !== "assistant") {
      if (role !== "tool") items.push(entry.slots[0]!.item);
      chars += entry.chars;
      if (!(role === "tool" && stubbed)) unchanged++;
      stubbed = false;
      continue;
    }
    const first = ledger.callsBefore(k);
    const noReasoning = plan.dropReasoning && k < latest;
    let changed = noReasoning && entry.hasReasoning;
    stubbed = false;
    for (const slot of entry.slots) {
      if (noReasoning && slot.kind === "reasoning") continue;
      const sent = slot.elided && first + slot.call! < plan.cut ? slot.elided : slot;
      if (sent !== slot && slot.kind === "call") changed = true;
      if (sent !== slot && slot.kind === "output") stubbed = true;
      items.push(sent.item);
      chars += sent.chars;
    }
    if (!changed) unchanged++;
  }
  return { items, ...(head ? { head } : {}), chars, unchanged };
}
