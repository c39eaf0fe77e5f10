import { expect, test } from "bun:test";
import { reduceSession, SessionLogError } from "../../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { callsOf } from "../../../src/store/call-log.ts";

const at = "2026-12-01T00:00:00.000Z";
const answer = (step: number, text: string): SessionEvent => ({ type: "response", step, status: "completed", message: { role: "assistant", parts: [{ type: "text", text }] } as never, at });
const call = (step: number, messages: number): SessionEvent => ({ type: "call", step, model: "m", params: {}, messages, prompt: "p", at });
const log = (...rest: SessionEvent[]): SessionEvent[] => [
  { type: "session", v: 2, id: "s", at, cwd: "/p", model: "m" },
  { type: "prompt", key: "p", instructions: "i", tools: [] },
  ...rest,
];

test("an undo takes its turn and every later one out of the history; turns keep their numbers; a call keeps what it was sent", () => {
  const events = log(
    { type: "user", text: "one", at },
    call(1, 1),
    answer(1, "a1"),
    { type: "user", text: "two", at },
    call(2, 3),
    answer(2, "a2"),
    { type: "user", text: "three", at },
    call(3, 5),
    answer(3, "a3"),
    { type: "undo", turn: 2, at },
    { type: "user", text: "four", at },
  );
  const s = reduceSession(events);
  expect(s.messages.map((m) => (m.role === "user" ? m.text : m.role))).toEqual(["one", "assistant", "four"]);
  expect(s.turns.map((t) => [t.turn, t.text])).toEqual([[1, "one"], [4, "four"]]);
  expect(s.turnCount).toBe(4);
  // inspect still rebuilds call 3 from what it really sent.
  const calls = callsOf(s);
  expect(calls[2]!.messages.map((m) => (m.role === "user" ? m.text : m.role))).toEqual(["one", "assistant", "two", "assistant", "three"]);
  expect(calls[0]!.messages).toHaveLength(1);
});

test("an undo of a turn not in the history is an impossible log", () => {
  expect(() => reduceSession(log({ type: "user", text: "one", at }, { type: "undo", turn: 1, at }, { type: "undo", turn: 1, at }))).toThrow(SessionLogError);
});
