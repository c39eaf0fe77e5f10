import type { ResponseInputItem } from "openai/resources/responses/responses";
import { toolCallsOf, type Message } from "../session/messages.ts";
import { callItem, messageSlots, outputItem, resultsAfter, type InputSlot } from "../wire/serialise-input.ts";
import { ELIDE_MIN_CHARS, elideArguments, elisionStub } from "./elide.ts";

/** An input item and what it adds to the request body: its JSON and the comma after it. */
export type SizedItem = { item: ResponseInputItem; chars: number };
export const sized = (item: ResponseInputItem): SizedItem => ({ item, chars: itemChars(item) });

// An image costs the model about 1,500 tokens at most, whatever its bytes: counted as that much text.
const IMAGE_CHARS = 6000;

/** What an item weighs as text: its JSON and the comma after it, an image (an MCP tool's) as IMAGE_CHARS rather than its base64. */
function itemChars(item: ResponseInputItem): number {
  const chars = JSON.stringify(item).length + 1;
  if (item.type !== "function_call_output" || !Array.isArray(item.output)) return chars;
  const images = item.output.filter((part) => part.type === "input_image");
  return chars + images.reduce((sum, image) => sum + IMAGE_CHARS - JSON.stringify(image).length, 0);
}

/** One item of a message on the wire; `elided` is what replaces it when its call is elided (when that saves anything). */
export type EntrySlot = SizedItem & { kind: InputSlot["kind"]; call: number | undefined; elided: SizedItem | undefined };

/**
 * What one message puts on the wire, measured once. A message never changes once it is in the log,
 * except that a tool message gains results as they come, which changes the outputs of the response
 * before it: `resultsSeen` says how many there were when this was measured.
 */
export type WireEntry = {
  message: Message;
  slots: EntrySlot[];
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
};

/** The wire entry of `messages[i]` for a request to `model`. */
export function wireEntry(messages: readonly Message[], i: number, model: string): WireEntry {
  const m = messages[i]!;
  const results = resultsAfter(messages, i);
  const entry: WireEntry = { message: m, slots: [], chars: 0, savings: [], reasoningChars: 0, bareChars: 0, hasReasoning: false, resultsSeen: results.length };
  const calls = m.role === "assistant" ? toolCallsOf(m) : [];
  let saved = 0;
  for (const call of calls) entry.savings.push(0);
  if (m.role === "assistant") for (const p of m.parts) if (p.type === "reasoning") entry.hasReasoning = true;
  for (const { item, kind, call, result } of messageSlots(messages, i, model)) {
    const chars = itemChars(item);
    const elided = call === undefined ? undefined : elidedItem(kind, calls[call]!, result);
    const slot: EntrySlot = { item, chars, kind, call, elided: elided && sized(elided) };
    entry.chars += chars;
    if (kind === "reasoning") entry.reasoningChars += chars;
    if (slot.elided) {
      entry.savings[call!]! += chars - slot.elided.chars;
      saved += chars - slot.elided.chars;
    }
    entry.slots.push(slot);
  }
  entry.bareChars = entry.chars - entry.reasoningChars - saved;
  return entry;
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
  if (!result || result.output.length < ELIDE_MIN_CHARS) return undefined;
  return outputItem(call.callId, elisionStub(call, result.output, result.isError));
}
