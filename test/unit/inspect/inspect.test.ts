import { describe, expect, test } from "bun:test";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { bodyDiff } from "../../../src/inspect/body-diff.ts";
import { InspectError, inspectView, type InspectOptions } from "../../../src/inspect/inspect-view.ts";
import { logTurns } from "../../../src/inspect/log-turns.ts";

const at = "2026-12-01T00:00:00.000Z";
const tools = (...names: string[]) => names.map((name) => ({ type: "function", name, parameters: { type: "object", properties: {} } }));
const prompt = (key: string, instructions: string, ...names: string[]): SessionEvent => ({ type: "prompt", key, instructions, tools: tools(...names) });
const call = (step: number, messages: number, extra: Partial<Extract<SessionEvent, { type: "call" }>> = {}): SessionEvent => ({ type: "call", step, model: "gpt-5", params: { store: false }, messages, prompt: "p", at, ...extra });
const usage = { inputTokens: 1_000, cachedTokens: 0, outputTokens: 100, reasoningTokens: 0 };
const answer = (step: number, text: string): SessionEvent => ({ type: "response", step, status: "completed", message: { role: "assistant", model: "gpt-5", usage, parts: [{ type: "text", text }] }, at });
const calling = (step: number, callId: string, name: string): SessionEvent => ({
  type: "response",
  step,
  status: "completed",
  message: { role: "assistant", model: "gpt-5", usage, parts: [{ type: "tool-call", callId, name, arguments: "{}" }] },
  at,
});
const log = (...rest: SessionEvent[]): SessionEvent[] => [{ type: "session", v: 2, id: "s1", at, cwd: "/p", model: "gpt-5" }, prompt("p", "be brief", "read_file", "bash"), ...rest];

/** Turn 1 answered after a denied tool call; turn 2 failed; turn 3 undone; turn 4 after the undo, on another model and prompt. */
const events = log(
  { type: "user", text: "one", at },
  call(1, 1),
  calling(1, "c1", "bash"),
  { type: "verdict", callId: "c1", allowed: false, reason: "denied by a rule" },
  { type: "result", callId: "c1", output: "denied: rm -rf", isError: true, denied: true },
  call(2, 3),
  answer(2, "done one"),
  { type: "user", text: "two", at },
  call(3, 5),
  { type: "response", step: 3, status: "error", error: "429 rate limited", at },
  { type: "user", text: "three", at },
  call(4, 6),
  answer(4, "done three"),
  { type: "undo", turn: 3, at },
  { type: "model", model: "gpt-5-mini" },
  prompt("q", "be brief, and mind the skill", "read_file", "bash", "skill"),
  { type: "user", text: "four", at },
  call(5, 6, { model: "gpt-5-mini", prompt: "q", trailer: "tasks: 1 open" }),
);

const options = (o: Partial<InspectOptions> = {}): InspectOptions => ({ turns: false, diff: false, full: false, json: false, prefix: "s1", columns: Infinity, rebuild: (c) => ({ model: c.model, input: c.messages.map((m) => m.role) }), ...o });

describe("the inspector's turns", () => {
  test("each turn keeps the state it ended in; an undone turn stays listed with its calls", () => {
    const { turns } = logTurns(events);
    expect(turns.map((t) => [t.turn, t.state, t.undoneAt !== undefined, t.calls.map((c) => c.step)])).toEqual([
      [1, "answered", false, [1, 2]],
      [2, "no-answer", false, [3]],
      [3, "answered", true, [4]],
      [4, "interrupted", false, [5]], // its call never got a response
    ]);
  });

  test("what is new in each call: the prompt and instructions first, a denied result, and after an undo the history cut back, another model and prompt", () => {
    const { calls } = logTurns(events);
    expect(calls.map((c) => c.news.map((n) => n.kind))).toEqual([
      ["prompt", "instructions", "tools"],
      ["results"],
      ["prompt"],
      ["prompt"],
      ["cut", "prompt", "model", "instructions", "tools", "trailer"],
    ]);
    expect(calls[1]!.news[0]).toEqual({ kind: "results", results: [{ callId: "c1", tool: "bash", chars: 14, isError: true, denied: true }] });
    expect(calls[4]!.news[0]).toEqual({ kind: "cut", from: 6, to: 5 });
    expect(calls[4]!.news[4]).toEqual({ kind: "tools", names: ["read_file", "bash", "skill"], added: ["skill"], removed: [] });
  });

  test("--turns reads as one line per call under its turn, the undone turn said so", () => {
    const text = inspectView(events, { lines: events.length }, options({ turns: true }));
    const out = text.split("\n");
    expect(out).toContain('turn 3 · undone (it had answered) · "three" · 1 call · 1.1k tok · $0.0022');
    expect(out).toContainEqual(expect.stringMatching(/^  call 2 +gpt-5 +→ answer +1\.1k tok +\$0\.0022 +new: 1 result \(bash denied, 14 chars\)$/));
    expect(out).toContainEqual(expect.stringMatching(/^  call 3 +gpt-5 +error: 429 rate limited +new: prompt "two"$/));
    expect(out).toContainEqual(
      expect.stringMatching(/^  call 5 +gpt-5-mini +no response \(the process stopped first\) +new: history cut back from 6 to 5 messages \(undo\) · prompt "four" · model gpt-5 → gpt-5-mini · instructions \(28 chars\) · tools \+skill · step note \(13 chars\)$/),
    );
  });

  test("a narrow terminal wraps a call's news under it, still under its own turn", () => {
    const out = inspectView(events, { lines: events.length }, options({ turns: true, columns: 130 })).split("\n");
    const at5 = out.findIndex((l) => l.startsWith("  call 5"));
    expect(out[at5 - 1]).toStartWith("turn 4 · interrupted");
    expect(out.length).toBeGreaterThan(at5 + 1);
    expect(out.slice(at5 + 1).every((l) => l.startsWith(" ".repeat(40)) && l.length < 130)).toBe(true);
  });

  test("a call the session does not have, and flags that do not go together, are one clear line", () => {
    expect(() => inspectView(events, { lines: 1 }, options({ call: 6 }))).toThrow(new InspectError("no call 6: the session has calls 1–5"));
    expect(() => inspectView(events, { lines: 1, damaged: { line: 9, reason: "not JSON" } }, options({ call: 0 }))).toThrow(
      new InspectError("no call 0: the session has calls 1–5 (its log is read up to line 8: line 9 is damaged)"),
    );
    expect(() => inspectView(events, { lines: 1 }, options({ diff: true }))).toThrow(/^--diff compares one call/);
    expect(() => inspectView(events, { lines: 1 }, options({ turns: true, call: 2 }))).toThrow(/^--turns lists every call/);
  });
});

describe("a body against the one before, by reference", () => {
  test("reused runs are grouped, a repeated item is claimed once, what is not sent again is dropped", () => {
    const a = { type: "message", text: "a" };
    const b = { type: "message", text: "b" };
    const c = { type: "reasoning", text: "c" };
    const d = { type: "message", text: "d" };
    const diff = bodyDiff({ input: [a, b, c, a], model: "m", tools: [1] }, { input: [a, b, a, d, a], model: "m", tools: [2] });
    expect(diff).toEqual({
      items: 5,
      reused: [{ from: 1, to: 2, as: 1 }, { from: 3, to: 3, as: 4 }],
      added: [{ item: 4, value: d }, { item: 5, value: a }],
      dropped: [{ from: 3, to: 3 }],
      same: ["model"],
      changed: ["tools"],
    });
  });
});
