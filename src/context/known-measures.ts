import type { MeasuresToStore, StoredMeasures, StoredRegion } from "../store/measure-cache.ts";
import { lineChars, outcomeLines } from "./drop-exchanges.ts";
import type { Message, ToolResult } from "../session/messages.ts";
import { resultsAfter, slotsOf } from "../wire/serialise-input.ts";
import { sizedSlots, type EntrySlot, type KnownSlots, type WireEntry } from "./wire-entry.ts";
import type { DroppedRegion } from "./drop-exchanges.ts";
import type { KnownMeasures, WireLedger } from "./wire-ledger.ts";

// A message's record: resultsSeen, chars, reasoningChars, bareChars, hasReasoning, floorChars,
// firstElided + 1, noteChars + 1 (0: unknown), the call count and each call's saving, the slot count
// and each slot's characters and its elided form's (0: none).
const CALLS = 8;
// Where an entry read from a record came from: stored again, the record is copied, not made anew.
const RECORD = Symbol("record");
type Recorded = WireEntry & { [RECORD]?: { flat: ArrayLike<number>; o: number } };

/**
 * An earlier run's measures as the ledger takes them: for a message of the history this session
 * opened with — that very object, so an undo or another session never gets them — with as many
 * results as it had then, and the model they were measured for; and the region of the steps that
 * run dropped, its items as it sent them, for a ledger whose entries it stands for are all of these.
 */
export function knownMeasures(stored: StoredMeasures, opened: readonly Message[]): KnownMeasures {
  const { flat, offsets } = stored;
  return {
    entry(messages, i, model) {
      const k = i - stored.from;
      if (model !== stored.model || k < 0 || k >= offsets.length || messages[i] !== opened[i]) return undefined;
      const results = resultsAfter(messages, i);
      const o = offsets[k]!;
      return results.length === flat[o] ? new KnownEntry(messages[i]!, model, results, stored, k) : undefined;
    },
    region(ledger, drop) {
      const region = stored.region();
      const { entries, exchanges } = ledger;
      if (!region || region.drop !== drop || ledger.model !== stored.model || ledger.start !== stored.from) return undefined;
      // The same exchanges, each entry read from this file for the very message opened.
      if (exchanges.length < drop || exchanges[drop - 1]!.to !== region.end - 1) return undefined;
      for (let k = 0; k < region.end; k++) if ((entries[k] as Recorded)[RECORD]?.flat !== flat || entries[k]!.message !== opened[stored.from + k]) return undefined;
      // Its items are sent as this build stored them (the file's check hash vouches for them), not parsed.
      const head = stored.regionItems();
      return head && { chars: region.chars, notes: region.notes, end: region.end, head };
    },
  };
}

/**
 * A wire entry read from message from + k's record; its items and note lines are made (sized by the
 * record) only if asked for. A class: a resume makes thousands of them, and getters on a prototype
 * cost no closures each.
 */
class KnownEntry implements WireEntry {
  readonly [RECORD]: { flat: ArrayLike<number>; o: number };
  readonly resultsSeen: number;
  readonly chars: number;
  readonly reasoningChars: number;
  readonly bareChars: number;
  readonly hasReasoning: boolean;
  readonly floorChars: number;
  readonly firstElided: number;
  readonly savings: number[] = [];
  readonly noteChars?: number;
  private made: EntrySlot[] | undefined;

  constructor(
    readonly message: Message,
    private readonly model: string,
    private readonly results: readonly ToolResult[],
    private readonly stored: StoredMeasures,
    private readonly k: number,
  ) {
    const { flat } = stored;
    const o = stored.offsets[k]!;
    this[RECORD] = { flat, o };
    this.resultsSeen = flat[o]!;
    this.chars = flat[o + 1]!;
    this.reasoningChars = flat[o + 2]!;
    this.bareChars = flat[o + 3]!;
    this.hasReasoning = flat[o + 4] === 1;
    this.floorChars = flat[o + 5]!;
    this.firstElided = flat[o + 6]! - 1;
    for (let c = 1; c <= flat[o + CALLS]!; c++) this.savings.push(flat[o + CALLS + c]!);
    if (flat[o + 7]! > 0) this.noteChars = flat[o + 7]! - 1;
  }

  get noteLines(): readonly string[] | undefined {
    const lines = this.stored.texts()?.[this.k];
    return Array.isArray(lines) && this.noteChars === lineChars(lines) ? lines : undefined;
  }

  // The results as they were measured: one that comes later makes the ledger measure the message anew.
  get slots(): readonly EntrySlot[] {
    const { message, model } = this;
    // A prompt or a marker is one item of the entry's size (the dropped region takes thousands of them).
    if (!this.made && message.role !== "assistant") this.made = slotsOf(message, model, []).map(({ item, kind }) => ({ item, kind, chars: this.chars, call: undefined, elided: undefined }));
    if (!this.made) {
      const { flat, o } = this[RECORD];
      const at = o + CALLS + this.savings.length + 1;
      const known: KnownSlots = { count: flat[at]!, slotChars: (j) => flat[at + 1 + 2 * j]!, elidedChars: (j) => flat[at + 2 + 2 * j]! };
      this.made = sizedSlots(message, model, this.results.slice(0, this.resultsSeen), known);
    }
    return this.made;
  }
}

/**
 * The ledger's measures of the messages of `history` (a resumed session's as it opened, or a new
 * one's whole history), from its first entry on, to store for the next run (`measure-cache.ts`),
 * with each step's note lines and the dropped region a request composed of these very entries;
 * undefined when they are fewer than `atLeast`.
 */
export function measuresToStore(
  ledger: Pick<WireLedger, "entries" | "model" | "start">,
  history: readonly Message[],
  atLeast = 1,
  composed?: DroppedRegion & { drop: number; of: readonly WireEntry[] },
): MeasuresToStore | undefined {
  const { entries, start } = ledger;
  let count = 0;
  while (count < entries.length && start + count < history.length && entries[count]!.message === history[start + count]) count++;
  if (count < atLeast) return undefined;
  const flat: number[] = [];
  const texts: (readonly string[])[] = [];
  for (let k = 0; k < count; k++) {
    const entry = entries[k]!;
    const next = entries[k + 1]?.message;
    // What a note says of it is told from the results it was measured with.
    const tool = next?.role === "tool" ? { ...next, results: next.results.slice(0, entry.resultsSeen) } : undefined;
    const lines = entry.message.role !== "assistant" ? [] : (entry.noteLines ?? outcomeLines(entry.message, tool));
    const record = recordOf(entry, lineChars(lines));
    flat.push(record.length, ...record);
    texts.push(lines);
  }
  const region = composed && regionToStore(composed, entries, count);
  return { model: ledger.model, from: start, flat, texts, ...(region ? { region } : {}) };
}

/** A region made of the first entries stored, as they are (one made of entries measured since is not). */
function regionToStore(composed: DroppedRegion & { drop: number; of: readonly WireEntry[] }, entries: readonly WireEntry[], count: number): (StoredRegion & { items: Uint8Array }) | undefined {
  const { drop, end, of, readBack } = composed;
  if (end > count || of.length !== end) return undefined;
  for (let k = 0; k < end; k++) if (of[k] !== entries[k]) return undefined;
  if (readBack) return { drop, end, chars: [...readBack.chars], notes: [...readBack.notes], items: readBack.head };
  const { items, notes } = composed;
  const noteSet = new Set(notes);
  return { drop, end, chars: items.map((i) => i.chars), notes: items.flatMap((i, j) => (noteSet.has(i) ? [j] : [])), items: Buffer.from(JSON.stringify(items.map((i) => i.item))) };
}

function recordOf(entry: Recorded, noteChars: number): number[] {
  const read = entry[RECORD];
  if (read && entry.noteChars === noteChars) return Array.from({ length: read.flat[read.o - 1]! }, (_, j) => read.flat[read.o + j]!);
  const { resultsSeen, chars, reasoningChars, bareChars, hasReasoning, floorChars, firstElided, savings, slots } = entry;
  const record = [resultsSeen, chars, reasoningChars, bareChars, hasReasoning ? 1 : 0, floorChars, firstElided + 1, noteChars + 1, savings.length, ...savings, slots.length];
  for (const slot of slots) record.push(slot.chars, slot.elided?.chars ?? 0);
  return record;
}
