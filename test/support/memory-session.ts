import type { Message } from "../../src/session/messages.ts";
import type { BuildRequest } from "../../src/loop/run.ts";
import type { Commit } from "../../src/session/turn-fact.ts";
import { factEvents } from "../../src/session/fact-event.ts";
import { createSessionReducer } from "../../src/session/reduce-session.ts";

const at = "2026-12-01T10:00:00.000Z";

/**
 * A session kept in memory the way the runtime keeps one (through the reducer), for tests that drive
 * the loop directly: `commit` applies the loop's facts, and `recording` logs each request as a call
 * before it goes out, as the runtime's request builder does. Seed messages must be user messages.
 */
export function memorySession(seed: Message[] = [{ role: "user", text: "go" }]) {
  const reducer = createSessionReducer();
  reducer.apply({ type: "session", v: 2, id: "test", at, cwd: "/tmp", model: "m" });
  reducer.apply({ type: "prompt", key: "p", instructions: "", tools: [] });
  for (const m of seed) {
    if (m.role !== "user") throw new Error("memorySession seeds only user messages");
    reducer.apply({ type: "user", text: m.text, at });
  }
  const state = reducer.state!;
  const commit: Commit = (fact) => void factEvents(fact, state, at).forEach(reducer.apply);
  const recording = (build: BuildRequest): BuildRequest => (messages, opts) => {
    reducer.apply({ type: "call", step: state.callLog.calls.length + 1, model: "m", params: {}, messages: messages.length, prompt: "p", at });
    return build(messages, opts);
  };
  return { state, messages: state.messages, commit, recording };
}
