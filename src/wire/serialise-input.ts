import type { ResponseInputItem } from "openai/resources/responses/responses";
import { INTERRUPTED_OUTPUT, type AssistantMessage, type Message, type ToolResult } from "../session/messages.ts";

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
 * Session messages → Responses `input` items, for stateless mode: no provider ids ever go on the
 * wire, reasoning is replayed only to the model that made it and only when the item it produced
 * follows, every call gets exactly one output (calls of a response first, then outputs in call order).
 */
export function serialiseInput(messages: readonly Message[], opts: SerialiseOptions): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (let i = activeStart(messages); i < messages.length; i++) {
    const m = messages[i]!;
    switch (m.role) {
      case "compaction":
        items.push(userItem(summaryPreamble(m.summary)));
        break;
      case "user":
        items.push(userItem(m.text));
        break;
      case "assistant": {
        const next = messages[i + 1];
        pushAssistant(items, m, opts.model, next?.role === "tool" ? next.results : []);
        break;
      }
      case "tool":
        break; // emitted with the assistant message that made the calls
    }
  }
  return items;
}

const userItem = (text: string): ResponseInputItem => ({
  type: "message",
  role: "user",
  content: [{ type: "input_text", text }],
});

function pushAssistant(items: ResponseInputItem[], m: AssistantMessage, model: string, results: readonly ToolResult[]) {
  const parts = m.parts;
  const callIds: string[] = [];
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part.type === "reasoning") {
      // Encrypted reasoning is only valid for its own model, and the API rejects one that the
      // item it produced does not immediately follow.
      const next = parts[p + 1];
      const producesNext = next !== undefined && (next.type === "tool-call" || (next.type === "text" && next.text !== ""));
      if (part.encrypted && sameModel(m.model, model) && producesNext) {
        items.push({
          type: "reasoning",
          summary: part.summary.map((text) => ({ type: "summary_text", text })),
          encrypted_content: part.encrypted,
        } as ResponseInputItem);
      }
    } else if (part.type === "text") {
      // phase goes back as it came: later models read it to tell commentary from answers.
      if (part.text !== "")
        items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: part.text }], ...(part.phase ? { phase: part.phase } : {}) } as ResponseInputItem);
    } else {
      callIds.push(part.callId);
      items.push({ type: "function_call", call_id: part.callId, name: part.name, arguments: part.arguments });
    }
  }
  for (const callId of callIds) {
    const result = results.find((r) => r.callId === callId);
    items.push({ type: "function_call_output", call_id: callId, output: result ? result.output : INTERRUPTED_OUTPUT });
  }
}

/**
 * The API answers with the dated snapshot it ran ("gpt-5-2025-08-07" for "gpt-5"); reasoning it made
 * is still valid when the alias is asked again.
 */
export const sameModel = (answered: string, requested: string): boolean =>
  answered === requested || (answered.startsWith(`${requested}-`) && /^\d{4}-\d{2}-\d{2}$/.test(answered.slice(requested.length + 1)));
