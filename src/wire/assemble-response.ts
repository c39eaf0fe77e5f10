import type { ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import type { AssistantMessage, AssistantPart, Phase, Usage } from "../session/messages.ts";
import type { ModelEvent } from "./model-stream.ts";
import { streamFailureToModelError, type StreamFailure } from "./stream-error.ts";

/**
 * Turns the SDK's parsed stream events, fed one at a time, into ModelEvents. Pure: no I/O.
 * `push` returns what to emit now: a delta, the finished message (`done`) on `response.completed`,
 * what streamed (`incomplete`) on `response.incomplete`, or an `error` for an in-stream failure;
 * after any of those it ignores everything.
 */
export type ResponseAssembler = {
  push(event: ResponseStreamEvent): ModelEvent | undefined;
  /** The message as streamed so far (what an aborted turn keeps). */
  partial(): AssistantMessage;
};

// One slot per output item, by `output_index`; item types shiro does not use are only named.
type Slot =
  | { kind: "reasoning"; itemId?: string; summary: string[]; encrypted?: string }
  | { kind: "text"; itemId?: string; content: string[]; phase?: Phase }
  | { kind: "call"; itemId?: string; callId: string; name: string; arguments: string }
  | { kind: "other"; itemType: string };

/** `requestedModel` stands in for the answering model until the stream names it. */
export function createResponseAssembler(requestedModel: string): ResponseAssembler {
  const slots: (Slot | undefined)[] = [];
  let model = requestedModel;
  let responseId: string | undefined;
  let finished = false;

  const reasoningAt = (index: number, itemId?: string) => {
    const slot = slots[index];
    if (slot?.kind === "reasoning") return slot;
    return (slots[index] = { kind: "reasoning", itemId, summary: [] });
  };
  const textAt = (index: number, itemId?: string) => {
    const slot = slots[index];
    if (slot?.kind === "text") return slot;
    return (slots[index] = { kind: "text", itemId, content: [] });
  };
  const callAt = (index: number, itemId?: string) => {
    const slot = slots[index];
    if (slot?.kind === "call") return slot;
    return (slots[index] = { kind: "call", itemId, callId: "", name: "", arguments: "" });
  };

  const message = (): AssistantMessage => {
    const used = slots.filter((s) => s !== undefined);
    const others = used.flatMap((s) => (s.kind === "other" ? [s.itemType] : []));
    return {
      role: "assistant",
      model,
      ...(responseId ? { responseId } : {}),
      parts: used.flatMap((s) => (s.kind === "other" ? [] : [toPart(s)])),
      ...(others.length ? { otherItems: others } : {}),
    };
  };
  const withUsage = (usage: ResponseUsage | null | undefined): AssistantMessage => {
    const counted = toUsage(usage);
    return { ...message(), ...(counted ? { usage: counted } : {}) };
  };

  const fail = (failure: StreamFailure): ModelEvent => {
    finished = true;
    return { type: "error", error: streamFailureToModelError(failure), partial: message() };
  };

  function push(event: ResponseStreamEvent): ModelEvent | undefined {
    if (finished) return undefined;
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
        responseId = event.response.id;
        if (event.response.model) model = event.response.model;
        return undefined;
      case "response.output_item.added":
      case "response.output_item.done": {
        // `.done` carries the complete item (the final `encrypted_content`); `.added` only starts it.
        const item = event.item;
        const index = event.output_index;
        if (item.type === "reasoning") {
          const slot = reasoningAt(index, item.id);
          slot.summary = item.summary.map((s) => s.text);
          if (event.type === "response.output_item.done" && item.encrypted_content) slot.encrypted = item.encrypted_content;
        } else if (item.type === "message") {
          const slot = textAt(index, item.id);
          slot.content = item.content.map((c) => (c.type === "output_text" ? c.text : c.refusal));
          if (item.phase) slot.phase = item.phase;
        } else if (item.type === "function_call") {
          Object.assign(callAt(index, item.id), { callId: item.call_id, name: item.name, arguments: item.arguments });
        } else {
          slots[index] = { kind: "other", itemType: item.type };
        }
        return undefined;
      }
      case "response.reasoning_summary_part.added": {
        const summary = reasoningAt(event.output_index, event.item_id).summary;
        summary[event.summary_index] ??= "";
        return undefined;
      }
      case "response.reasoning_summary_text.delta": {
        const summary = reasoningAt(event.output_index, event.item_id).summary;
        const before = summary[event.summary_index] ?? "";
        summary[event.summary_index] = before + event.delta;
        // Summary parts are separate paragraphs; a reader of the deltas should see them apart.
        const separator = event.summary_index > 0 && before === "" ? "\n\n" : "";
        return { type: "reasoning-delta", text: separator + event.delta };
      }
      case "response.reasoning_summary_text.done":
        reasoningAt(event.output_index, event.item_id).summary[event.summary_index] = event.text;
        return undefined;
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const slot = textAt(event.output_index, event.item_id);
        slot.content[event.content_index] = (slot.content[event.content_index] ?? "") + event.delta;
        return { type: "text-delta", text: event.delta, ...(slot.phase ? { phase: slot.phase } : {}) };
      }
      case "response.output_text.done":
        textAt(event.output_index, event.item_id).content[event.content_index] = event.text;
        return undefined;
      case "response.refusal.done":
        textAt(event.output_index, event.item_id).content[event.content_index] = event.refusal;
        return undefined;
      case "response.function_call_arguments.delta":
        callAt(event.output_index, event.item_id).arguments += event.delta;
        return undefined;
      case "response.function_call_arguments.done":
        // This event may lack `name`; the name comes from the item events.
        callAt(event.output_index, event.item_id).arguments = event.arguments;
        return undefined;
      case "response.completed":
      case "response.incomplete": {
        finished = true;
        if (event.response.id) responseId = event.response.id;
        if (event.response.model) model = event.response.model;
        if (event.type === "response.completed") return { type: "done", message: withUsage(event.response.usage) };
        // The reason may be one the SDK's types do not list yet (e.g. server_timeout).
        return { type: "incomplete", message: withUsage(event.response.usage), reason: event.response.incomplete_details?.reason ?? "unknown" };
      }
      case "response.failed":
        return fail(event.response.error ?? { message: "the response failed" });
      case "error": {
        // The API nests the fields under `error`; the SDK's type declares them flat.
        const nested = (event as unknown as { error?: StreamFailure }).error;
        return fail(nested ?? event);
      }
      default:
        return undefined;
    }
  }

  return { push, partial: message };
}

function toPart(slot: Exclude<Slot, { kind: "other" }>): AssistantPart {
  switch (slot.kind) {
    case "reasoning":
      return { type: "reasoning", itemId: slot.itemId, summary: slot.summary, ...(slot.encrypted ? { encrypted: slot.encrypted } : {}) };
    case "text":
      return { type: "text", itemId: slot.itemId, text: slot.content.join(""), ...(slot.phase ? { phase: slot.phase } : {}) };
    case "call":
      return { type: "tool-call", itemId: slot.itemId, callId: slot.callId, name: slot.name, arguments: slot.arguments };
  }
}

function toUsage(usage: ResponseUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return {
    inputTokens: usage.input_tokens,
    cachedTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.output_tokens,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
