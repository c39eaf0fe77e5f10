import { textOf } from "../session/messages.ts";
import { composeRequest } from "../context/compose-request.ts";
import { requestParams } from "../wire/build-request.ts";
import type { ModelStream } from "../wire/model-stream.ts";
import type { ReasoningEffort } from "../wire/reasoning-effort.ts";

/**
 * A single model call without tools (a summary, a note): the answer's text, or null when it failed,
 * was cut short or said nothing. It goes through the same composer as every call, never compacted: it
 * is one message.
 */
export async function askOnce(stream: ModelStream, at: { model: string; sessionId: string; reasoningEffort?: ReasoningEffort }, text: string, signal: AbortSignal): Promise<string | null> {
  const { body } = composeRequest([{ role: "user", text }], {
    model: at.model,
    instructions: "You answer precisely and only with what is asked, without tools.",
    tools: [],
    params: requestParams({ model: at.model, sessionId: at.sessionId, reasoningEffort: at.reasoningEffort }),
    limits: { threshold: Number.MAX_SAFE_INTEGER, window: Number.MAX_SAFE_INTEGER },
    harder: false,
  });
  for await (const event of stream(body, signal)) {
    if (event.type === "done") return textOf(event.message).trim() || null;
    // A summary or note cut short is not one to keep.
    if (event.type === "error" || event.type === "incomplete") return null;
  }
  return null;
}
