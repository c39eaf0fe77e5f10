import { INTERRUPTED_OUTPUT, type Message, type ToolResult } from "../session/messages.ts";
import type { Todo } from "../session/notebook.ts";
import type { SessionUpdate } from "./acp-types.ts";
import { planOf, resultContent, toolCallStart } from "./session-updates.ts";

/**
 * A session's history as the `session/update`s an editor rebuilds its view from (`session/load`): the
 * person's prompts and images, the reasoning summaries, the answers, and each call with its final
 * status and output; then the task list, as a plan. Pure.
 */
export function replaySession(messages: readonly Message[], todos: readonly Todo[], root: string): SessionUpdate[] {
  const results = new Map<string, ToolResult>();
  for (const m of messages) if (m.role === "tool") for (const r of m.results) results.set(r.callId, r);
  const updates = messages.flatMap((m): SessionUpdate[] => {
    if (m.role === "user") {
      const images = (m.images ?? []).map((image): SessionUpdate => ({ sessionUpdate: "user_message_chunk", content: { type: "image", data: image.data, mimeType: image.mediaType } }));
      return [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: m.text } }, ...images];
    }
    if (m.role === "compaction") return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `The conversation so far was compacted:\n${m.summary}` } }];
    if (m.role === "tool") return [];
    return m.parts.flatMap((part): SessionUpdate[] => {
      if (part.type === "reasoning") return part.summary.length ? [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.summary.join("\n\n") } }] : [];
      if (part.type === "text") return part.text ? [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: part.text } }] : [];
      const result = results.get(part.callId);
      const output = result?.output ?? INTERRUPTED_OUTPUT;
      return [{ ...toolCallStart(part.callId, part.name, part.arguments, root), status: result && !result.isError ? "completed" : "failed", content: resultContent(output, undefined, root) }];
    });
  });
  return todos.length ? [...updates, planOf(todos)] : updates;
}
