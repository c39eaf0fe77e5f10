import { describe, expect, test } from "bun:test";
import { createSessionReducer, reduceSession, reducerOfPrefix, SessionLogError } from "../../../src/session/reduce-session.ts";
import { runStateOf } from "../../../src/session/run-state.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { parseLog } from "../../../src/session/session-log.ts";
import type { AssistantMessage } from "../../../src/session/messages.ts";

const at = "2026-12-01T10:00:00.000Z";
const head: SessionEvent = { type: "session", v: 2, id: "s1", at, cwd: "/p", model: "gpt-5" };
const prompt: SessionEvent = { type: "prompt", key: "k1", instructions: "be brief", tools: [] };
const call = (step: number, messages: number): SessionEvent => ({ type: "call", step, model: "gpt-5", params: { store: false }, messages, prompt: "k1", at });
const answer = (parts: AssistantMessage["parts"]): AssistantMessage => ({ role: "assistant", model: "gpt-5", parts, usage: { inputTokens: 10, cachedTokens: 0, outputTokens: 2, reasoningTokens: 0 } });
const toolCall = (callId: string) => ({ type: "tool-call" as const, callId, name: "read_file", arguments: "{}" });
const respond = (step: number, message?: AssistantMessage, status: "completed" | "aborted" | "error" | "incomplete" = "completed"): SessionEvent => ({ type: "response", step, status, ...(message ? { message } : {}), at });

/** A two-step job: read a file, then answer. */
const job: SessionEvent[] = [
  head,
  { type: "user", text: "read a", at },
  prompt,
  call(1, 1),
  respond(1, answer([toolCall("c1")])),
  { type: "verdict", callId: "c1", allowed: true },
  { type: "tool", callId: "c1" },
  { type: "result", callId: "c1", output: "A" },
  call(2, 3),
  respond(2, answer([{ type: "text", text: "it says A" }])),
  { type: "todos", todos: [{ content: "ship", status: "pending" }] },
];

const failsAt = (events: SessionEvent[], line: number, reason: RegExp) => {
  let error: unknown;
  try {
    reduceSession(events);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(SessionLogError);
  expect((error as SessionLogError).line).toBe(line);
  expect((error as SessionLogError).reason).toMatch(reason);
};

describe("the session reducer", () => {
  test("a job's events become the history the loop sends, the call log inspect rebuilds from, and the task list", () => {
    const s = reduceSession(job);
    expect(s.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(s.messages[2]).toEqual({ role: "tool", results: [{ callId: "c1", output: "A" }] });
    expect(s.callLog.calls.map((c) => [c.messageCount, c.snapshot, c.response?.status])).toEqual([[1, "k1", "completed"], [3, "k1", "completed"]]);
    expect(s.callLog.calls[0]!.response?.usage?.inputTokens).toBe(10);
    expect(s.notebook.todos).toEqual([{ content: "ship", status: "pending" }]);
    expect([s.answered, s.events, s.pending.size]).toEqual([true, job.length, 0]);
  });

  test("a background job that ended by itself joins the history as a note before the next call; never while a call waits for its result", () => {
    const ended: SessionEvent = { type: "job", id: 1, command: "npm test\nnpm run lint", how: "exit", code: 1, at };
    const s = reduceSession([...job.slice(0, 8), ended]);
    expect(s.messages.at(-1)).toEqual({ role: "user", text: "(shiro, not the person) Background job 1 (`npm test…`) ended by itself with exit code 1; bash_output with id 1 shows what it printed since the last read." });
    failsAt([...job.slice(0, 7), ended], 8, /a job note while c1 wait/);
  });

  test("a model switch, a learned window, a compaction and an interrupted call are all restored", () => {
    const s = reduceSession([...job.slice(0, 7), { type: "model", model: "gpt-5-mini" }, { type: "window", model: "gpt-5-mini", tokens: 9000 }, { type: "compaction", summary: "did A", at }]);
    expect(s.model).toBe("gpt-5-mini");
    expect(s.contextWindow).toEqual({ model: "gpt-5-mini", tokens: 9000 });
    expect(s.messages.at(-1)).toEqual({ role: "compaction", summary: "did A" });
    // c1 started and never finished: no result is invented, and none may come now.
    expect(s.messages.some((m) => m.role === "tool")).toBe(false);
  });

  test("a run that never got an answer is not `answered`", () => {
    expect(reduceSession([head, { type: "user", text: "hi", at }, prompt, call(1, 1), { type: "response", step: 1, status: "error", error: "401", at }]).answered).toBe(false);
  });

  test("rejects, naming the line: no session line first, a second one", () => {
    failsAt([{ type: "user", text: "x", at }], 1, /must begin with its session line/);
    failsAt([head, head], 2, /second session line/);
  });

  test("rejects calls out of order, overlapping, built from messages the log lacks, or from an unknown prompt", () => {
    failsAt([head, { type: "user", text: "x", at }, prompt, call(2, 1)], 4, /call 2 out of order \(the next is 1\)/);
    failsAt([head, { type: "user", text: "x", at }, prompt, call(1, 1), call(2, 1)], 5, /call 2 while call 1 has no response/);
    failsAt([head, { type: "user", text: "x", at }, prompt, call(1, 5)], 4, /built from 5 messages, but the log holds 1/);
    failsAt([head, { type: "user", text: "x", at }, call(1, 1)], 3, /refers to prompt k1, which no earlier line defines/);
  });

  test("rejects a response for a call not in flight, a second response, a response holding a non-assistant message", () => {
    failsAt([head, respond(1)], 2, /response for call 1, which is not the call in flight/);
    failsAt([...job.slice(0, 5), respond(1)], 6, /second response for call 1/);
    failsAt([...job.slice(0, 4), { type: "response", step: 1, status: "completed", message: { role: "user", text: "x" }, at }], 5, /holds a user message/);
  });

  test("rejects verdicts, starts and results for unknown calls, a result after the call's own, and anything for a call the history moved past", () => {
    failsAt([...job.slice(0, 5), { type: "result", callId: "nope", output: "" }], 6, /result for nope, which is no call waiting/);
    failsAt([...job.slice(0, 5), { type: "verdict", callId: "nope", allowed: false }], 6, /verdict on nope/);
    failsAt([...job.slice(0, 7), { type: "tool", callId: "c1" }], 8, /started twice/);
    failsAt([...job.slice(0, 8), { type: "result", callId: "c1", output: "again" }], 9, /result for c1, which is no call waiting/);
    failsAt([...job.slice(0, 5), { type: "user", text: "next", at }, { type: "result", callId: "c1", output: "late" }], 7, /result for c1/);
  });

  test("a rejected event leaves the state as it was, so the runtime can refuse it and go on", () => {
    const reducer = createSessionReducer();
    for (const e of job.slice(0, 5)) reducer.apply(e);
    expect(() => reducer.apply(call(3, 1))).toThrow(SessionLogError);
    expect(reducer.state!.callLog.calls).toHaveLength(1);
    expect(reducer.state!.events).toBe(5);
  });
});

describe("reading a log", () => {
  const text = job.map((e) => JSON.stringify(e)).join("\n") + "\n";

  test("whole lines, whatever the last one ends with", () => {
    expect(parseLog(text)).toEqual({ events: job, goodBytes: Buffer.byteLength(text) });
    expect(parseLog(text.trimEnd()).events).toEqual(job);
  });

  test("a torn last line (kill -9 mid-write) is dropped and reported; the lines before it stand", () => {
    const torn = text + JSON.stringify({ type: "user", text: "half", at }).slice(0, 20);
    expect(parseLog(torn)).toEqual({ events: job, goodBytes: Buffer.byteLength(text), tornLine: job.length + 1 });
  });

  test("a bad line anywhere else is damage, named: the events before it are the log's valid part", () => {
    const lines = text.split("\n");
    lines[3] = "{not json";
    expect(parseLog(lines.join("\n"))).toEqual({ events: job.slice(0, 3), goodBytes: Buffer.byteLength(lines.slice(0, 3).join("\n") + "\n"), damaged: { line: 4, reason: "not JSON" } });
    lines[3] = JSON.stringify({ type: "call", step: "one" });
    expect(parseLog(lines.join("\n")).damaged).toEqual({ line: 4, reason: expect.stringMatching(/^not a session event/) });
  });

  test("an impossible event stops the reduction before it, naming its line", () => {
    const { reducer, damaged } = reducerOfPrefix([...job.slice(0, 3), { type: "result", callId: "nobody", output: "x" }, ...job.slice(3)]);
    expect([damaged?.line, reducer.state.events]).toEqual([4, 3]);
    expect(() => reducerOfPrefix([{ type: "user", text: "no head", at }])).toThrow("line 1: the log must begin with its session line");
  });
});

describe("what became of the last run", () => {
  const asked: SessionEvent[] = [head, { type: "user", text: "read a", at }, prompt];
  const stateOf = (events: SessionEvent[]) => runStateOf(reduceSession(events));

  test("answered; an answer cut short by the API, with its text or without; a call that failed", () => {
    expect(stateOf(job)).toBe("answered");
    expect(stateOf([...asked, call(1, 1), { type: "response", step: 1, status: "incomplete", message: { ...answer([{ type: "text", text: "half" }]), incomplete: "max_output_tokens" }, at }])).toBe("incomplete");
    expect(stateOf([...asked, call(1, 1), { type: "response", step: 1, status: "incomplete", error: "max_output_tokens", at }])).toBe("incomplete");
    expect(stateOf([...asked, call(1, 1), { type: "response", step: 1, status: "error", error: "could not reach the API", at }])).toBe("no-answer");
    expect(stateOf([head, { type: "user", text: "stopped before the call", at }])).toBe("no-answer");
    expect(stateOf([head])).toBe("no-answer");
  });

  test("interrupted: a call in flight or aborted, a tool that never finished, results no call took up", () => {
    expect(stateOf([...asked, call(1, 1)])).toBe("interrupted");
    expect(stateOf([...asked, call(1, 1), { type: "response", step: 1, status: "aborted", at }])).toBe("interrupted");
    expect(stateOf([...asked, call(1, 1), { type: "response", step: 1, status: "aborted", message: { ...answer([{ type: "text", text: "par" }]), incomplete: "aborted" }, at }])).toBe("interrupted");
    expect(stateOf(job.slice(0, 7))).toBe("interrupted");
    expect(stateOf(job.slice(0, 8))).toBe("interrupted");
  });
});

describe("an imported history (shiro import)", () => {
  const history = reduceSession(job).messages;
  const imported = (over: Partial<Extract<SessionEvent, { type: "import" }>> = {}): SessionEvent => ({ type: "import", from: { id: "old", exportedAt: at }, messages: history, turns: [{ start: 0, at: "2026-11-30T09:00:00.000Z" }], at, ...over });

  test("line 2 of a new session: the history, its turns and where it came from; the session's own turns are numbered after them", () => {
    const s = reduceSession([head, imported(), { type: "user", text: "next", at }]);
    expect(s.messages).toEqual([...history, { role: "user", text: "next" }]);
    expect(s.turns).toEqual([{ turn: 1, start: 0, text: "read a", at: "2026-11-30T09:00:00.000Z" }, { turn: 2, start: 4, text: "next", at }]);
    expect([s.importedFrom, s.answered, s.callLog.calls.length]).toEqual([{ id: "old", exportedAt: at }, true, 0]);
    // An undo of the session's own turn leaves the import; one of the imported turn takes it out.
    expect(reduceSession([head, imported(), { type: "user", text: "next", at }, { type: "undo", turn: 2, at }]).messages).toEqual(history);
    expect(reduceSession([head, imported(), { type: "undo", turn: 1, at }]).messages).toEqual([]);
  });

  test("refused, naming its line: into a session with a history, a second time, a turn that starts at no prompt or out of order, an impossible history", () => {
    failsAt([head, { type: "user", text: "hi", at }, imported()], 3, /^an import into a session that already has a history$/);
    failsAt([head, imported(), imported({ messages: [] })], 3, /^an import into a session that already has a history$/);
    failsAt([head, imported({ turns: [{ start: 1, at }] })], 2, /^an imported turn starts at message 2, which is no prompt/);
    failsAt([head, imported({ messages: [...history, { role: "user", text: "b" }], turns: [{ start: 4, at }, { start: 0, at }] })], 2, /^an imported turn starts at message 1, which is no prompt after the turn before$/);
    failsAt([head, imported({ messages: [history[0]!, history[2]!] })], 2, /^the imported history is impossible: message 2 holds tool results, but no answer with calls comes right before it$/);
  });
});
