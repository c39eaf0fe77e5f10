import { textOf } from "../session/messages.ts";
import { composeRequest } from "../context/compose-request.ts";
import { requestParams } from "../wire/build-request.ts";
import type { ModelStream } from "../wire/model-stream.ts";
import type { ReasoningEffort } from "../wire/reasoning-effort.ts";

/** A one-off call's answer, or why there is none, in words for the person. */
export type AskOutcome = { text: string } | { failed: string };

/**
 * A single model call without tools (a summary, a note): the answer's text, or why there is none
 * (the call failed, was cut short or said nothing). It goes through the same composer as every call,
 * never compacted: it is one message.
 */
export async function askOnceWhy(stream: ModelStream, at: { model: string; sessionId: string; reasoningEffort?: ReasoningEffort }, text: string, signal: AbortSignal): Promise<AskOutcome> {
  const { body } = composeRequest([{ role: "user", text }], {
    model: at.model,
    instructions: "You answer precisely and only with what is asked, without tools.",
    tools: [],
    params: requestParams({ model: at.model, sessionId: at.sessionId, reasoningEffort: at.reasoningEffort }),
    limits: { threshold: Number.MAX_SAFE_INTEGER, window: Number.MAX_SAFE_INTEGER },
    harder: false,
  });
  for await (const event of stream(body, signal)) {
    if (event.type === "done") {
      const answer = textOf(event.message).trim();
      return answer ? { text: answer } : { failed: "the model answered nothing" };
    }
    // A summary or note cut short is not one to keep.
    if (event.type === "incomplete") return { failed: `the answer was cut short (${event.reason})` };
    if (event.type === "error") return { failed: signal.aborted ? "it was stopped" : `the model call failed: ${event.error.message}` };
  }
  return { failed: "the model call ended without an answer" };
}

/** askOnceWhy's text, or null. */
export const askOnce = async (...args: Parameters<typeof askOnceWhy>): Promise<string | null> => ((o) => ("text" in o ? o.text : null))(await askOnceWhy(...args));
