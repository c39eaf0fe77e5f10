/**
 * A scripted Turn → the SSE events the real API would stream for it (without sequence numbers),
 * in the recorded order: reasoning item, message item, function-call items.
 */
import { randomBytes } from "node:crypto";
import { sealReasoning } from "./check-input.ts";
import { estimateTokens } from "./prompt-tokens.ts";
import type { Turn } from "./turn.ts";

export type StreamEvent = { type: string } & Record<string, unknown>;

export type RenderedTurn = {
  events: StreamEvent[];
  output: Record<string, any>[];
  outputTokens: number;
  reasoningTokens: number;
};

export type RenderOptions = {
  model: string;
  reasoningModel: boolean;
  /** request.reasoning.summary was set: stream the summary parts. */
  withSummary: boolean;
  /** request.include has "reasoning.encrypted_content". */
  withEncrypted: boolean;
};

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
export const newId = (prefix: "resp" | "rs" | "msg" | "fc") => `${prefix}_${hex(25)}`;
const newCallId = () => `call_${randomBytes(18).toString("base64url").slice(0, 24)}`;
// Real deltas carry random padding so their length leaks nothing.
const obfuscation = () => randomBytes(8).toString("base64url").slice(0, 4 + Math.floor(Math.random() * 10));

/** Splits text into word-sized deltas (long words cut), several whenever the text has more than one character. */
export function splitDeltas(text: string, size = 12): string[] {
  const chars = [...text];
  if (chars.length < 2) return [text];
  const words = (text.match(/\s*\S+\s*/g) ?? [text]).flatMap((word) => cut([...word], size));
  const pieces: string[] = [];
  for (const word of words) {
    const last = pieces.length - 1;
    if (last >= 0 && pieces[last]!.length + word.length <= size) pieces[last] += word;
    else pieces.push(word);
  }
  return pieces.length > 1 ? pieces : cut(chars, Math.ceil(chars.length / 2));
}

const cut = (chars: string[], size: number) => {
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
};

export function renderTurn(turn: Turn, opts: RenderOptions): RenderedTurn {
  const events: StreamEvent[] = [];
  const output: Record<string, any>[] = [];
  let outputChars = 0;
  let reasoningTokens = 0;
  const emit = (type: string, payload: Record<string, unknown>) => events.push({ type, ...payload });

  if (opts.reasoningModel) {
    const id = newId("rs");
    const output_index = output.length;
    const sealed = sealReasoning(id, opts.model);
    // The copy in output_item.added is not the final ciphertext; only the .done one verifies.
    const early = opts.withEncrypted ? { encrypted_content: `${sealed.slice(0, -10)}${obfuscation()}` } : {};
    emit("response.output_item.added", { output_index, item: { id, type: "reasoning", ...early, summary: [] } });
    const summary = opts.withSummary ? (turn.reasoning ?? []) : [];
    summary.forEach((text, summary_index) => {
      const at = { item_id: id, output_index, summary_index };
      emit("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
      for (const delta of splitDeltas(text)) emit("response.reasoning_summary_text.delta", { ...at, delta, obfuscation: obfuscation() });
      emit("response.reasoning_summary_text.done", { ...at, text });
      emit("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
    });
    const item = {
      id,
      type: "reasoning",
      ...(opts.withEncrypted ? { encrypted_content: sealed } : {}),
      summary: summary.map((text) => ({ type: "summary_text", text })),
    };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    reasoningTokens = 8 + estimateTokens((turn.reasoning ?? []).join(""));
  }

  const message = (text: string, phase?: "commentary" | "final_answer") => {
    const id = newId("msg");
    const output_index = output.length;
    const at = { item_id: id, output_index, content_index: 0 };
    const labelled = phase ? { phase } : {};
    emit("response.output_item.added", { output_index, item: { id, type: "message", status: "in_progress", content: [], ...labelled, role: "assistant" } });
    emit("response.content_part.added", { ...at, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
    for (const delta of splitDeltas(text)) emit("response.output_text.delta", { ...at, delta, logprobs: [], obfuscation: obfuscation() });
    emit("response.output_text.done", { ...at, text, logprobs: [] });
    const part = { type: "output_text", annotations: [], logprobs: [], text };
    emit("response.content_part.done", { ...at, part });
    const item = { id, type: "message", status: "completed", content: [part], ...labelled, role: "assistant" };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    outputChars += text.length;
  };

  const calls = turn.calls ?? [];
  if (turn.commentary !== undefined) message(turn.commentary, "commentary");
  if (turn.text !== undefined || (calls.length === 0 && turn.commentary === undefined)) {
    message(turn.text ?? "", turn.commentary === undefined ? undefined : calls.length ? "commentary" : "final_answer");
  }

  for (const call of calls) {
    const id = newId("fc");
    const output_index = output.length;
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const call_id = newCallId();
    emit("response.output_item.added", { output_index, item: { id, type: "function_call", status: "in_progress", arguments: "", call_id, name: call.name } });
    for (const delta of splitDeltas(args, 6))
      emit("response.function_call_arguments.delta", { item_id: id, output_index, delta, obfuscation: obfuscation() });
    // The recorded .done carries no name; clients must not depend on it.
    emit("response.function_call_arguments.done", { item_id: id, output_index, arguments: args });
    const item = { id, type: "function_call", status: "completed", arguments: args, call_id, name: call.name };
    emit("response.output_item.done", { output_index, item });
    output.push(item);
    outputChars += args.length;
  }

  return { events, output, outputTokens: Math.ceil(outputChars / 4) + reasoningTokens, reasoningTokens };
}

/** Output items given whole (hosted tools' items, say), streamed as added + done like any other item. */
export function renderItems(items: Record<string, any>[]): RenderedTurn {
  const events: StreamEvent[] = [];
  items.forEach((item, output_index) => {
    events.push({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress" } });
    events.push({ type: "response.output_item.done", output_index, item });
  });
  return { events, output: items, outputTokens: 8 * items.length, reasoningTokens: 0 };
}
