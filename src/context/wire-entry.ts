import type { ResponseInputItem } from "openai/resources/responses/responses";
import { toolCallsOf, type Message, type ToolResult } from "../session/messages.ts";
import { callItem, outputItem, resultsAfter, slotsOf, type InputSlot } from "../wire/serialise-input.ts";
import { itemChars, sized, type SizedItem } from "../wire/sized-item.ts";
import { ELIDE_MIN_CHARS, elideArguments, elisionStub } from "./elide.ts";

/** One item of a message on the wire; `elided` is what replaces it when its call is elided (when that saves anything). */
export type EntrySlot = SizedItem & { kind: InputSlot["kind"]; call: number | undefined; elided: SizedItem | undefined };

/**
 * What one message puts on the wire, measured once. A message never changes once it is in the log,
 * except that a tool message gains results as they come, which changes the outputs of the response
 * before it: `resultsSeen` says how many there were when this was measured.
 */
export type WireEntry = {
  message: Message;
  /** Its items; an entry made from known measures makes them only when they are first asked for. */
  readonly slots: readonly EntrySlot[];
  /** Characters of all its items, sent whole. */
  chars: number;
  /** Per call of the message (in order): the characters eliding it saves. */
  savings: number[];
  /** Characters of the reasoning items it replays to the request's model. */
  reasoningChars: number;
  /** Characters left with every call elided and no reasoning: what dropping it saves. */
  bareChars: number;
  /** Any reasoning part at all (dropping reasoning changes the message even when none is replayed). */
  hasReasoning: boolean;
  resultsSeen: number;
  /** Characters of its items with every call elided and no reasoning, each at most as sent whole (what no plan goes under). */
  floorChars: number;
  /** The first of its calls whose items change when elided; -1: none. */
  firstElided: number;
  /** What its lines add to a note when it is dropped, and the lines, when known (an earlier run made them). */
  noteChars?: number;
  readonly noteLines?: readonly string[];
};

/** What an earlier run measured of a message's slot j (`known-measures.ts`): its characters and its elided form's (0: none). */
export type KnownSlots = { count: number; slotChars(j: number): number; elidedChars(j: number): number };

/** The wire entry of `messages[i]` for a request to `model`, measured. */
export function wireEntry(messages: readonly Message[], i: number, model: string): WireEntry {
  const m = messages[i]!;
  const results = resultsAfter(messages, i);
  const slots = sizedSlots(m, model, results);
  const entry: WireEntry = { message: m, slots, chars: 0, savings: [], reasoningChars: 0, bareChars: 0, hasReasoning: false, resultsSeen: results.length, floorChars: 0, firstElided: -1 };
  for (const _ of m.role === "assistant" ? toolCallsOf(m) : []) entry.savings.push(0);
  if (m.role === "assistant") for (const p of m.parts) if (p.type === "reasoning") entry.hasReasoning = true;
  let saved = 0;
  for (const slot of slots) {
    entry.chars += slot.chars;
    if (slot.kind === "reasoning") entry.reasoningChars += slot.chars;
    else entry.floorChars += Math.min(slot.chars, slot.elided?.chars ?? slot.chars);
    if (slot.elided) {
      entry.savings[slot.call!]! += slot.chars - slot.elided.chars;
      saved += slot.chars - slot.elided.chars;
      if (entry.firstElided < 0 || slot.call! < entry.firstElided) entry.firstElided = slot.call!;
    }
  }
  entry.bareChars = entry.chars - entry.reasoningChars - saved;
  return entry;
}

/** The message's items with their sizes: measured, or taken from `known` when it has as many. */
export function sizedSlots(m: Message, model: string, results: readonly ToolResult[], known?: KnownSlots): EntrySlot[] {
  const calls = m.role === "assistant" ? toolCallsOf(m) : [];
  const slots = slotsOf(m, model, results);
  const trusted = known?.count === slots.length ? known : undefined;
  return slots.map(({ item, kind, call, result }, j) => {
    const elided = call === undefined ? undefined : elidedItem(kind, calls[call]!, result);
    const elidedChars = elided && trusted?.elidedChars(j);
    return {
      item,
      chars: trusted ? trusted.slotChars(j) : itemChars(item),
      kind,
      call,
      elided: elided && (elidedChars ? { item: elided, chars: elidedChars } : sized(elided)),
    };
  });
}

/**
 * Elide, don't delete: an old call keeps its place and its pairing; only a large output becomes a
 * stub saying what it was and how to get it back, and large arguments a marker.
 */
function elidedItem(kind: InputSlot["kind"], call: { callId: string; name: string; arguments: string }, result: InputSlot["result"]): ResponseInputItem | undefined {
  if (kind === "call") {
    const args = elideArguments(call.arguments);
    return args === call.arguments ? undefined : callItem(call.callId, call.name, args);
  }
  // An image weighs as much as a long output, however short the text beside it.
  const images = result?.images?.length ?? 0;
  if (!result || (result.output.length < ELIDE_MIN_CHARS && images === 0)) return undefined;
  return outputItem(call.callId, elisionStub(call, result.output, result.isError, images));
}
