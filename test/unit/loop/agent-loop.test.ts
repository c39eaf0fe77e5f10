import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { run, type RunOptions } from "../../../src/loop/run.ts";
import { RUN_TIMEOUT, type AgentEvent } from "../../../src/loop/events.ts";
import type { AssistantMessage, Message } from "../../../src/session/messages.ts";
import type { ModelEvent, ModelStream, RequestBody } from "../../../src/wire/model-stream.ts";
import { defineTool, ToolError } from "../../../src/tools/tool.ts";
import { memorySession } from "../../support/memory-session.ts";
import { noSecrets } from "../../support/no-secrets.ts";

// The loop takes its model stream as an argument; here it is a scripted function of the history.
const reply = (parts: AssistantMessage["parts"]): ModelEvent => ({ type: "done", message: { role: "assistant", model: "m", parts } });
const call = (callId: string, name: string, args: string) => ({ type: "tool-call" as const, callId, name, arguments: args });

const echo = defineTool({
  name: "echo",
  description: "echo",
  kind: "read",
  schema: z.object({ text: z.string() }),
  subject: () => ({}),
  run: async ({ text }) => ({ output: `echo: ${text}` }),
});
const boom = defineTool({
  name: "boom",
  description: "fails",
  kind: "read",
  schema: z.object({}),
  subject: () => ({}),
  run: async () => {
    throw new Error("disk on fire");
  },
});
const picky = defineTool({
  name: "picky",
  description: "expected failure",
  kind: "write",
  schema: z.object({}),
  subject: () => ({}),
  run: async () => {
    throw new ToolError("path is a directory");
  },
});

async function drive(script: (messages: readonly Message[], n: number) => ModelEvent[], over: Partial<RunOptions> = {}) {
  const session = memorySession();
  const messages = session.messages;
  const bodies: RequestBody[] = [];
  let n = 0;
  const stream: ModelStream = async function* (body) {
    bodies.push(body);
    yield* script(messages, n++);
  };
  const events: AgentEvent[] = [];
  for await (const e of run({
    messages,
    commit: session.commit,
    tools: [echo, boom, picky],
    stream,
    buildRequest: session.recording((_m, { harder }) => ({ body: { model: harder ? "harder" : "m", input: [], stream: true } })),
    authorize: async () => ({ allowed: true }),
    root: "/tmp",
    maxSteps: 10,
    signal: new AbortController().signal,
    ...noSecrets,
    ...over,
  }))
    events.push(e);
  return { messages, events, bodies, end: events.at(-1) as Extract<AgentEvent, { type: "end" }> };
}

describe("agent loop", () => {
  test("bad JSON, schema errors, unknown tools and throwing tools become error results the model reads", async () => {
    const { messages, end } = await drive((_m, n) =>
      n === 0
        ? [reply([call("c1", "echo", "{not json"), call("c2", "echo", '{"text":5}'), call("c3", "nope", "{}"), call("c4", "boom", "{}"), call("c5", "picky", "{}"), call("c6", "echo", '{"text":"hi"}')])]
        : [reply([{ type: "text", text: "done" }])],
    );
    expect(end).toMatchObject({ status: "done", steps: 2, denials: 0 });
    const results = (messages[2] as Extract<Message, { role: "tool" }>).results;
    expect(results.map((r) => r.isError ?? false)).toEqual([true, true, true, true, true, false]);
    expect(results[0]!.output).toContain("not valid JSON");
    expect(results[1]!.output).toContain("Invalid arguments for echo");
    expect(results[2]!.output).toBe('Unknown tool "nope". Available tools: echo, boom, picky.');
    expect(results[3]!.output).toBe("boom failed: disk on fire");
    expect(results[4]!.output).toBe("path is a directory");
    expect(results[5]!.output).toBe("echo: hi");
  });

  test("stops at maxSteps with the results of the last step recorded", async () => {
    const { end, messages } = await drive(() => [reply([call(`c${Math.random()}`, "echo", '{"text":"again"}')])], { maxSteps: 3 });
    expect(end).toMatchObject({ status: "max-steps", steps: 3 });
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(3);
  });

  test("a denied call is reported to the model and counted", async () => {
    const { end, messages } = await drive((_m, n) => (n === 0 ? [reply([call("c1", "picky", "{}")])] : [reply([{ type: "text", text: "ok" }])]), {
      authorize: async () => ({ allowed: false, reason: "needs approval" }),
    });
    expect(end).toMatchObject({ status: "done", denials: 1 });
    expect((messages[2] as Extract<Message, { role: "tool" }>).results[0]).toEqual({ callId: "c1", output: "Denied: needs approval", isError: true });
  });

  test("a context overflow is retried once with a harder compaction, never looped", async () => {
    const overflow: ModelEvent = { type: "error", error: { message: "too long", status: 400, code: "context_length_exceeded", retryable: false } };
    const once = await drive((_m, n) => (n === 0 ? [overflow] : [reply([{ type: "text", text: "fits" }])]));
    expect(once.end).toMatchObject({ status: "done", steps: 1 });
    expect(once.bodies.map((b) => b.model)).toEqual(["m", "harder"]);
    const twice = await drive(() => [overflow]);
    expect(twice.end.status).toBe("error");
    expect(twice.bodies).toHaveLength(2);
    // After a retry that fits, later steps are built normally again (and earn their own one retry).
    const later = await drive((_m, n) => (n === 0 ? [overflow] : n === 1 ? [reply([call("c1", "echo", '{"text":"x"}')])] : [reply([{ type: "text", text: "ok" }])]));
    expect(later.bodies.map((b) => b.model)).toEqual(["m", "harder", "m"]);
  });

  test("an abort keeps the streamed text as an incomplete message", async () => {
    const controller = new AbortController();
    const { end, messages } = await drive(
      () => {
        controller.abort();
        return [
          { type: "text-delta", text: "half an ans" },
          { type: "error", error: { message: "aborted", retryable: false }, partial: { role: "assistant", model: "m", parts: [{ type: "text", text: "half an ans" }] } },
        ];
      },
      { signal: controller.signal },
    );
    expect(end.status).toBe("aborted");
    expect(messages[1]).toEqual({ role: "assistant", model: "m", parts: [{ type: "text", text: "half an ans" }], incomplete: "aborted" });
  });

  test("an abort with the run-timeout reason ends as `timeout`, keeping the streamed text", async () => {
    const controller = new AbortController();
    const { end, messages } = await drive(
      () => {
        controller.abort(RUN_TIMEOUT);
        return [{ type: "error", error: { message: "aborted", retryable: false }, partial: { role: "assistant", model: "m", parts: [{ type: "text", text: "so far" }] } }];
      },
      { signal: controller.signal },
    );
    expect(end.status).toBe("timeout");
    expect(messages[1]).toMatchObject({ parts: [{ type: "text", text: "so far" }], incomplete: "aborted" });
  });

  test("an incomplete response keeps its text (not its half-made calls) and ends the run as `incomplete` with an error naming why", async () => {
    const cut: AssistantMessage = {
      role: "assistant",
      model: "m",
      parts: [{ type: "text", text: "Half of it", phase: "final_answer" }, call("c1", "echo", '{"te')],
      usage: { inputTokens: 10, cachedTokens: 0, outputTokens: 16, reasoningTokens: 0 },
    };
    const { end, messages, events, bodies } = await drive(() => [{ type: "incomplete", message: cut, reason: "max_output_tokens" }]);
    expect(bodies).toHaveLength(1);
    expect(end).toMatchObject({ status: "incomplete", steps: 1, usage: { outputTokens: 16 } });
    expect(messages[1]).toEqual({ ...cut, parts: [{ type: "text", text: "Half of it", phase: "final_answer" }], incomplete: "max_output_tokens" });
    const error = events.find((e) => e.type === "error") as Extract<AgentEvent, { type: "error" }>;
    expect(error.error).toMatchObject({ code: "max_output_tokens", retryable: false });
    expect(error.error.message).toContain("max_output_tokens");
  });

  test("an answer with no text and no call is an error saying what the response held, not a silent success", async () => {
    const held: ModelEvent = { type: "done", message: { role: "assistant", model: "m", parts: [{ type: "reasoning", summary: [] }], otherItems: ["web_search_call", "web_search_call"] } };
    const { end, events } = await drive(() => [held]);
    expect(end.status).toBe("error");
    const error = events.find((e) => e.type === "error") as Extract<AgentEvent, { type: "error" }>;
    expect(error.error.message).toBe("the model answered with no text and no tool call (the response held only: reasoning, web_search_call ×2)");
  });

  test("retries reach the run's events as they happen, before the answer", async () => {
    const retry: ModelEvent = { type: "retry", attempt: 2, maxAttempts: 6, delayMs: 512, reason: "500 server error" };
    const { events } = await drive(() => [retry, reply([{ type: "text", text: "ok" }])]);
    expect(events.map((e) => e.type)).toEqual(["retry", "message", "end"]);
    expect(events[0]).toEqual(retry);
  });
});
