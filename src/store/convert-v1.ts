import type { Message } from "../session/messages.ts";
import type { CallRecord } from "../session/message-schema.ts";
import type { SessionFile } from "./session-schema.ts";
import { LOG_VERSION, type SessionEvent } from "../session/session-event.ts";

// A schema-1 answer with no call on record (never written by shiro, but possible in an edited file)
// still needs a call to answer: this prompt stands in for the unknown one.
const UNKNOWN_PROMPT = "v1-unknown";

/**
 * A schema-1 session (one JSON document) as the events its log would have held, so it reduces to the
 * same history, call log, task list, model and window. Each call goes right before the message it
 * was built up to; its answer is the next assistant message.
 */
export function eventsFromV1(file: SessionFile): SessionEvent[] {
  const { calls, snapshots } = file.callLog;
  const firstModel = calls[0]?.model ?? file.model;
  const events: SessionEvent[] = [{ type: "session", v: LOG_VERSION, id: file.id, at: file.createdAt, cwd: file.cwd, model: firstModel }];
  const defined = new Set<string>();
  const at = file.updatedAt;
  let next = 0; // the next recorded call to place
  let steps = 0;
  let inFlight: { call?: CallRecord; step: number } | undefined; // a placed call whose response is not yet placed

  const settle = (message?: Message) => {
    if (inFlight === undefined) return false;
    const { call, step } = inFlight;
    const status = call?.response?.status ?? "aborted";
    const answered = message?.role === "assistant" && status !== "error";
    events.push({ type: "response", step, status, ...(answered ? { message } : {}), ...(call?.response?.error ? { error: call.response.error } : {}), at });
    inFlight = undefined;
    return answered;
  };
  const place = (call: CallRecord) => {
    settle();
    if (!defined.has(call.snapshot)) {
      const snapshot = snapshots[call.snapshot]!;
      events.push({ type: "prompt", key: call.snapshot, instructions: snapshot.instructions, tools: snapshot.tools });
      defined.add(call.snapshot);
    }
    events.push({
      type: "call",
      step: ++steps,
      model: call.model,
      params: call.params,
      messages: call.messageCount,
      prompt: call.snapshot,
      ...(call.harder ? { harder: true } : {}),
      ...(call.limits ? { limits: call.limits } : {}),
      ...(call.trailer !== undefined ? { trailer: call.trailer } : {}),
      at,
    });
    inFlight = { call, step: steps };
  };

  file.messages.forEach((message, i) => {
    while (next < calls.length && calls[next]!.messageCount <= i) place(calls[next++]!);
    if (message.role === "assistant") {
      if (settle(message)) return;
      // No call on record for this answer: one is made up, so the history is kept whole.
      if (!defined.has(UNKNOWN_PROMPT)) events.push({ type: "prompt", key: UNKNOWN_PROMPT, instructions: "", tools: [] });
      defined.add(UNKNOWN_PROMPT);
      events.push({ type: "call", step: ++steps, model: message.model, params: { converted: "no call was recorded for this answer" }, messages: i, prompt: UNKNOWN_PROMPT, at });
      events.push({ type: "response", step: steps, status: message.incomplete ? "aborted" : "completed", message, at });
      return;
    }
    settle();
    if (message.role === "user") events.push({ type: "user", text: message.text, at });
    else if (message.role === "compaction") events.push({ type: "compaction", summary: message.summary, at });
    else for (const r of message.results) events.push({ type: "result", callId: r.callId, output: r.output, ...(r.isError ? { isError: true } : {}) });
  });
  while (next < calls.length) place(calls[next++]!);
  // A last call with an outcome on record gets it; one without was in flight when the run died.
  if (inFlight?.call?.response) settle();
  if (file.notebook.todos.length) events.push({ type: "todos", todos: file.notebook.todos });
  if (file.contextWindow) events.push({ type: "window", ...file.contextWindow });
  if (file.model !== firstModel) events.push({ type: "model", model: file.model });
  return events;
}
