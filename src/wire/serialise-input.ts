import type { ResponseInputItem } from "openai/resources/responses/responses";
import { INTERRUPTED_OUTPUT, type AssistantMessage, type Message, type InputImage, type ToolResult } from "../session/messages.ts";
import { takesImages } from "./image-input.ts";

export { INTERRUPTED_OUTPUT };

export type SerialiseOptions = { model: string };

export const summaryPreamble = (summary: string) =>
  `Summary of the conversation so far (earlier messages were compacted into it):\n\n${summary}`;

/** Index of the newest compaction marker (what goes on the wire starts there), or 0. */
export function activeStart(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "compaction") return i;
  return 0;
}

/**
 * One input item of an assistant message, with what it came from: `call` is the index, among the
 * message's calls, of the call a `function_call` or `function_call_output` belongs to.
 */
export type InputSlot = { item: ResponseInputItem; kind: "user" | "reasoning" | "text" | "call" | "output"; call?: number; result?: ToolResult };

/**
 * Session messages → Responses `input` items, for stateless mode: no provider ids ever go on the
 * wire, reasoning is replayed only to the model that made it and only when the item it produced
 * follows, every call gets exactly one output (calls of a response first, then outputs in call order).
 */
export function serialiseInput(messages: readonly Message[], opts: SerialiseOptions): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (let i = activeStart(messages); i < messages.length; i++) for (const slot of messageSlots(messages, i, opts.model)) items.push(slot.item);
  return items;
}

/**
 * The items `messages[i]` puts on the wire to `model`: the one place a message is serialised (the
 * request and the wire ledger's measures both come from here). A tool message puts none: its results
 * go with their calls, after the response that made them.
 */
export function messageSlots(messages: readonly Message[], i: number, model: string): InputSlot[] {
  return slotsOf(messages[i]!, model, resultsAfter(messages, i));
}

/** `messageSlots` of one message, given the results that answer its calls. */
export function slotsOf(m: Message, model: string, results: readonly ToolResult[]): InputSlot[] {
  if (m.role === "assistant") return assistantSlots(m, model, results);
  if (m.role === "tool") return [];
  if (m.role === "compaction") return [{ item: userItem(summaryPreamble(m.summary)), kind: "user" }];
  return [{ item: m.images?.length ? promptItem(m.text, m.images, model) : userItem(m.text), kind: "user" }];
}

/** The results that answer the calls of the assistant message at `i` (the tool message right after it). */
export function resultsAfter(messages: readonly Message[], i: number): readonly ToolResult[] {
  const next = messages[i + 1];
  return next?.role === "tool" ? next.results : [];
}

export const userItem = (text: string): ResponseInputItem => ({
  type: "message",
  role: "user",
  content: [{ type: "input_text", text }],
});

export const callItem = (callId: string, name: string, args: string): ResponseInputItem => ({ type: "function_call", call_id: callId, name, arguments: args });
export const outputItem = (callId: string, output: string): ResponseInputItem => ({ type: "function_call_output", call_id: callId, output });

/**
 * A prompt with images: to a model that takes images, its text then each image as `input_image`; to
 * one that does not, the text and a line saying the images were not shown.
 */
function promptItem(text: string, images: readonly InputImage[], model: string): ResponseInputItem {
  if (!takesImages(model)) return userItem(notShown(text, images.length, model));
  return { type: "message", role: "user", content: [{ type: "input_text", text }, ...images.map(imageContent)] };
}

/** A result with images, as a prompt with them (`promptItem`) but as the call's output. */
export function resultItem(result: ToolResult, model: string): ResponseInputItem {
  const images = result.images ?? [];
  if (images.length === 0) return outputItem(result.callId, result.output);
  if (!takesImages(model)) return outputItem(result.callId, notShown(result.output, images.length, model));
  const content = [{ type: "input_text" as const, text: result.output }, ...images.map(imageContent)];
  return { type: "function_call_output", call_id: result.callId, output: content } as ResponseInputItem;
}

const notShown = (text: string, count: number, model: string) => `${text}\n[${count === 1 ? "the image is" : `the ${count} images are`} not shown: ${model} takes no images]`;

const imageContent = (image: InputImage) => ({ type: "input_image" as const, image_url: `data:${image.mediaType};base64,${image.data}`, detail: "auto" as const });

/** The items one response adds to the input, in wire order. */
export function assistantSlots(m: AssistantMessage, model: string, results: readonly ToolResult[]): InputSlot[] {
  const slots: InputSlot[] = [];
  const parts = m.parts;
  const calls: { callId: string }[] = [];
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part.type === "reasoning") {
      // Encrypted reasoning is only valid for its own model, and the API rejects one that the
      // item it produced does not immediately follow.
      const next = parts[p + 1];
      const producesNext = next !== undefined && (next.type === "tool-call" || (next.type === "text" && next.text !== ""));
      if (part.encrypted && sameModel(m.model, model) && producesNext) {
        const item = { type: "reasoning", summary: part.summary.map((text) => ({ type: "summary_text", text })), encrypted_content: part.encrypted } as ResponseInputItem;
        slots.push({ item, kind: "reasoning" });
      }
    } else if (part.type === "text") {
      // phase goes back as it came: later models read it to tell commentary from answers.
      if (part.text !== "")
        slots.push({ item: { type: "message", role: "assistant", content: [{ type: "output_text", text: part.text }], ...(part.phase ? { phase: part.phase } : {}) } as ResponseInputItem, kind: "text" });
    } else {
      slots.push({ item: callItem(part.callId, part.name, part.arguments), kind: "call", call: calls.length });
      calls.push(part);
    }
  }
  calls.forEach(({ callId }, call) => {
    const result = results.find((r) => r.callId === callId);
    slots.push({ item: result ? resultItem(result, model) : outputItem(callId, INTERRUPTED_OUTPUT), kind: "output", call, ...(result ? { result } : {}) });
  });
  return slots;
}

/**
 * The API answers with the dated snapshot it ran ("gpt-5-2025-08-07" for "gpt-5"); reasoning it made
 * is still valid when the alias is asked again.
 */
export const sameModel = (answered: string, requested: string): boolean =>
  answered === requested || (answered.startsWith(`${requested}-`) && /^\d{4}-\d{2}-\d{2}$/.test(answered.slice(requested.length + 1)));
