import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { openReasoning } from "../../support/check-input.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { eventShape, parseSse, postResponses, streamFrames, userMessage, jsonOf } from "../../support/sse-client.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const readCall = { name: "read_file", arguments: { path: "notes/a.txt" } };
let server: StrictServer;

beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "gpt-5": () => ({ reasoning: ["**Reading**\n\nI will read the notes file first."], calls: [readCall] }),
      "gpt-5-mini": sequenceModel([readCall], "The notes say hello."),
      plain: () => ({ text: "Hello there, this is a plain answer." }),
    },
    windows: { "tiny-window": 50 },
  });
});
afterAll(() => server.stop());

describe("stream shape", () => {
  test("reasoning + call: real event order, sequence numbers from 0, sealed reasoning only in .done", async () => {
    const frames = await streamFrames(server.url, {
      model: "gpt-5",
      input: [userMessage("read the notes")],
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "low", summary: "auto" },
    });
    expect(eventShape(frames)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta×n",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta×n",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(frames.map((f) => f.data.sequence_number)).toEqual(frames.map((_, i) => i));

    const [added, done] = frames.filter((f) => f.data.item?.type === "reasoning").map((f) => f.data.item);
    expect(added.id).toMatch(/^rs_/);
    expect(openReasoning(added.encrypted_content)).toBeNull();
    expect(openReasoning(done.encrypted_content)).toEqual({ id: done.id, model: "gpt-5" });
    const summaryDeltas = frames.filter((f) => f.event === "response.reasoning_summary_text.delta").map((f) => f.data.delta).join("");
    expect(summaryDeltas).toBe("**Reading**\n\nI will read the notes file first.");
    expect(done.summary).toEqual([{ type: "summary_text", text: summaryDeltas }]);

    const argDeltas = frames.filter((f) => f.event === "response.function_call_arguments.delta").map((f) => f.data.delta).join("");
    const call = frames.findLast((f) => f.event === "response.output_item.done")!.data.item;
    expect(call).toMatchObject({ type: "function_call", status: "completed", name: "read_file", arguments: argDeltas });
    expect(JSON.parse(argDeltas)).toEqual(readCall.arguments);
    expect(call.id).toMatch(/^fc_/);
    expect(call.call_id).toMatch(/^call_/);

    const completed = frames.at(-1)!.data.response;
    expect(completed.id).toMatch(/^resp_/);
    expect(completed.status).toBe("completed");
    expect(completed.output).toEqual([done, call]);
    const usage = completed.usage;
    expect(Object.keys(usage)).toEqual(["input_tokens", "input_tokens_details", "output_tokens", "output_tokens_details", "total_tokens"]);
    expect(usage.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  test("no summary asked → no summary events; no include → no encrypted_content anywhere", async () => {
    const frames = await streamFrames(server.url, { model: "gpt-5", input: [userMessage("go")] });
    expect(frames.some((f) => f.event.startsWith("response.reasoning_summary"))).toBe(false);
    expect(JSON.stringify(frames)).not.toContain("encrypted_content");
    expect(frames[2]!.data.item).toEqual({ id: expect.stringMatching(/^rs_/), type: "reasoning", summary: [] });
  });

  test("text response on a non-reasoning model: message item with content part and several deltas", async () => {
    const frames = await streamFrames(server.url, { model: "plain", input: [userMessage("hi")] });
    expect(eventShape(frames)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta×n",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const text = frames.filter((f) => f.event === "response.output_text.delta").map((f) => f.data.delta).join("");
    expect(text).toBe("Hello there, this is a plain answer.");
    expect(frames.at(-1)!.data.response.output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: "message",
        status: "completed",
        content: [{ type: "output_text", annotations: [], logprobs: [], text }],
        role: "assistant",
      },
    ]);
  });

  test("the openai SDK parses the stream", async () => {
    const client = new OpenAI({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
    const stream = await client.responses.create({ model: "plain", input: [userMessage("hi")] as any, stream: true });
    const types: string[] = [];
    let final: any;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.completed") final = event.response;
    }
    expect(types[0]).toBe("response.created");
    expect(final.output[0].content[0].text).toBe("Hello there, this is a plain answer.");
  });
});

describe("auth, context window, bookkeeping", () => {
  test("401 without a key, with the API's body", async () => {
    for (const key of [null, ""]) {
      const res = await postResponses(server.url, { model: "plain", input: [] }, { key });
      expect(res.status).toBe(401);
      const body = await jsonOf(res);
      expect(body.error).toMatchObject({ type: "invalid_request_error", param: null, code: null });
      expect(body.error.message).toStartWith("You didn't provide an API key.");
    }
  });

  test("input over the model's window → 400 context_length_exceeded, or in-stream when asked", async () => {
    const body = { model: "tiny-window", stream: true, input: [userMessage("x".repeat(400))] };
    const res = await postResponses(server.url, body);
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).error).toEqual({
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      type: "invalid_request_error",
      param: "input",
      code: "context_length_exceeded",
    });
    expect((await postResponses(server.url, { ...body, input: [userMessage("short")] })).status).toBe(200);

    const inStream = await startStrictServer({ windows: { "tiny-window": 50 }, contextErrorInStream: true });
    const frames = parseSse(await (await postResponses(inStream.url, body)).text());
    expect(frames.map((f) => f.event)).toEqual(["response.created", "response.in_progress", "error", "response.failed"]);
    expect(frames[2]!.data.error.code).toBe("context_length_exceeded");
    expect(frames[3]!.data.response.error.code).toBe("context_length_exceeded");
    await inStream.stop();
  });

  test("requests keep the exact body bytes and status; calls counts 200s only", async () => {
    const local = await startStrictServer();
    const raw = `{"model":"plain",  "stream":true,"input":[]}`;
    await (await postResponses(local.url, null, { raw })).text();
    await (await postResponses(local.url, { model: "plain", input: "not-an-array" })).text();
    expect(local.requests.map((r) => [r.raw, r.status])).toEqual([
      [raw, 200],
      [`{"model":"plain","input":"not-an-array"}`, 400],
    ]);
    expect(local.requests[0]!.headers.authorization).toBe("Bearer test-key");
    expect(local.calls).toBe(1);
    await local.stop();
  });
});

describe("prompt cache", () => {
  test("a request that extends the previous one reports the shared prefix as cached_tokens", async () => {
    const local = await startStrictServer({ defaultModel: sequenceModel([readCall], "done") });
    const base = { model: "gpt-5", stream: true, instructions: "You are a careful agent.", input: [userMessage("read notes/a.txt ".repeat(20))] };
    const usageOf = async (body: Record<string, unknown>) => (await streamFrames(local.url, body)).at(-1)!.data.response.usage;

    const first = await usageOf(base);
    expect(first.input_tokens_details.cached_tokens).toBe(0);
    const extended = {
      ...base,
      input: [
        ...base.input,
        { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"notes/a.txt"}' },
        { type: "function_call_output", call_id: "call_1", output: "hello" },
      ],
    };
    const second = await usageOf(extended);
    expect(second.input_tokens).toBeGreaterThan(first.input_tokens);
    expect(second.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(first.input_tokens - 8);
    expect(second.input_tokens_details.cached_tokens).toBeLessThan(second.input_tokens);

    // Rewriting the first user message breaks the prefix right after the instructions and tools.
    const rewritten = await usageOf({ ...extended, input: [userMessage("READ notes/a.txt"), ...extended.input.slice(1)] });
    expect(rewritten.input_tokens_details.cached_tokens).toBeLessThan(20);
    await local.stop();
  });
});
