import { afterEach, expect, test } from "bun:test";
import { createOpenAIStream } from "../../../src/wire/openai-stream.ts";
import { buildRequestBody } from "../../support/request-oracle.ts";
import type { ModelEvent, RequestBody } from "../../../src/wire/model-stream.ts";
import type { Message } from "../../../src/session/messages.ts";
import { recordedResponses, toSse } from "../../support/recorded-stream.ts";

// A real local HTTP server: each test scripts what the n-th request gets, as raw bytes.
type Reply = (n: number, req: Request) => Response | Promise<Response>;
let server: ReturnType<typeof Bun.serve> | undefined;
let bodies: string[] = [];
// The backoffs the stream asked for; these tests do not wait them out (the e2e tests do).
let waits: number[] = [];
const noWait = async (ms: number) => void waits.push(ms);

function serve(reply: Reply, opts: { idleTimeoutMs?: number; realWaits?: boolean } = {}) {
  bodies = [];
  waits = [];
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      bodies.push(await req.text());
      return reply(bodies.length, req);
    },
  });
  return createOpenAIStream({ apiKey: "test-key", baseURL: `http://127.0.0.1:${server.port}/v1`, idleTimeoutMs: opts.idleTimeoutMs ?? 10_000, ...(opts.realWaits ? {} : { sleep: noWait }) });
}
afterEach(() => server?.stop(true));

/** A streamed SSE response written chunk by chunk, with a pause so each write is its own TCP chunk. */
function sse(chunks: (string | Uint8Array)[], opts: { hang?: boolean; gapMs?: number } = {}) {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
        await Bun.sleep(opts.gapMs ?? 5);
      }
      if (!opts.hang) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

const jsonError = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
  Response.json({ error: { type: "invalid_request_error", param: null, code: null, ...error } }, { status, headers });

async function collect(stream: ReturnType<typeof createOpenAIStream>, body: RequestBody = request(), signal = new AbortController().signal) {
  const events: ModelEvent[] = [];
  for await (const event of stream(body, signal)) events.push(event);
  return events;
}

const request = (messages: Message[] = [{ role: "user", text: "hi" }]) =>
  buildRequestBody({ model: "gpt-5", instructions: "be brief", tools: [], messages, sessionId: "s1" });

// One short text response, as the API streams it.
const textEvents = (text: string, id = "resp_t") => [
  { type: "response.created", sequence_number: 0, response: { id, model: "gpt-5-2025-08-07", output: [] } },
  { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { id: "msg_t", type: "message", role: "assistant", status: "in_progress", content: [] } },
  { type: "response.output_text.delta", sequence_number: 2, item_id: "msg_t", output_index: 0, content_index: 0, delta: text, logprobs: [], obfuscation: "abc" },
  { type: "response.output_text.done", sequence_number: 3, item_id: "msg_t", output_index: 0, content_index: 0, text, logprobs: [] },
  { type: "response.completed", sequence_number: 4, response: { id, model: "gpt-5-2025-08-07", output: [], usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 6 } } },
];
const head = (events: unknown[]) => events.slice(0, 3); // created, item added, one delta — no completion

const doneText = (events: ModelEvent[]) => {
  const last = events.at(-1)!;
  if (last.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
};

test("a character split between two TCP chunks arrives whole", async () => {
  const bytes = new TextEncoder().encode(toSse(textEvents("猫")));
  const cat = new TextEncoder().encode("猫");
  const at = bytes.findIndex((_, i) => bytes[i] === cat[0] && bytes[i + 1] === cat[1]) + 1; // inside the 3-byte "猫"
  const stream = serve(() => sse([bytes.slice(0, at), bytes.slice(at)]));
  const events = await collect(stream);
  expect(events.filter((e) => e.type === "text-delta")).toEqual([{ type: "text-delta", text: "猫" }]);
  expect(doneText(events)).toBe("猫");
});

test("the body goes on the wire as its JSON, byte for byte, as JSON and with the caller's key", async () => {
  let headers: Headers | undefined;
  const stream = serve((_, req) => ((headers = req.headers), sse([toSse(textEvents("ok"))])));
  const body = request([{ role: "user", text: "naïve → café" }]);
  expect(doneText(await collect(stream, body))).toBe("ok");
  expect(bodies).toEqual([JSON.stringify(body)]);
  expect(headers?.get("content-type")).toBe("application/json");
  expect(headers?.get("authorization")).toBe("Bearer test-key");
});

test("429 with retry-after: 0 is retried at once (ours, not the SDK's) and then succeeds", async () => {
  const stream = serve((n) => (n === 1 ? jsonError(429, { message: "Rate limit reached", code: "rate_limit_exceeded" }, { "retry-after": "0" }) : sse([toSse(textEvents("ok"))])));
  const events = await collect(stream);
  expect(events[0]).toEqual({ type: "retry", attempt: 2, maxAttempts: 6, delayMs: 0, reason: "429 Rate limit reached" });
  expect(doneText(events)).toBe("ok");
  expect(bodies.length).toBe(2);
});

test("429 every time ends as one error event after six attempts", async () => {
  const stream = serve(() => new Response("", { status: 429, headers: { "retry-after": "0" } }));
  const events = await collect(stream);
  expect(events.filter((e) => e.type === "retry").map((e) => (e as { attempt: number }).attempt)).toEqual([2, 3, 4, 5, 6]);
  expect(events.at(-1)).toEqual({ type: "error", error: { message: "429 rate limited (after 6 attempts)", status: 429, retryable: true, fault: "rate-limit", retryAfterMs: 0 }, partial: expect.anything() });
  expect(bodies.length).toBe(6);
});

test("five 500s then success: six requests, backoff from 0.5 s doubling, jitter only lengthening it", async () => {
  const stream = serve((n) => (n <= 5 ? new Response("", { status: 500 }) : sse([toSse(textEvents("at last"))])));
  const events = await collect(stream);
  expect(doneText(events)).toBe("at last");
  expect(bodies.length).toBe(6);
  const nominal = [500, 1000, 2000, 4000, 8000];
  expect(waits.length).toBe(5);
  waits.forEach((ms, i) => {
    expect(ms).toBeGreaterThanOrEqual(nominal[i]!);
    expect(ms).toBeLessThanOrEqual(nominal[i]! * 1.25);
  });
});

test("retry-after-ms is honoured over the backoff", async () => {
  const stream = serve((n) => (n === 1 ? new Response("", { status: 503, headers: { "retry-after-ms": "1500" } }) : sse([toSse(textEvents("ok"))])));
  const events = await collect(stream);
  expect(events[0]).toMatchObject({ type: "retry", attempt: 2, delayMs: 1500 });
  expect(doneText(events)).toBe("ok");
});

for (const status of [400, 401, 403, 404, 422]) {
  test(`${status} is not retried: one request, one error`, async () => {
    const stream = serve(() => jsonError(status, { message: `refused with ${status}` }));
    const events = await collect(stream);
    expect(events).toEqual([{ type: "error", error: { message: `${status} refused with ${status}`, status, retryable: false }, partial: expect.anything() }]);
    expect(bodies.length).toBe(1);
  });
}

test("429 insufficient_quota is not retried: it can never succeed", async () => {
  const message = "You exceeded your current quota, please check your plan and billing details.";
  const stream = serve(() => Response.json({ error: { message, type: "insufficient_quota", param: null, code: "insufficient_quota" } }, { status: 429 }));
  const events = await collect(stream);
  expect(events).toEqual([{ type: "error", error: { message: `429 ${message}`, status: 429, code: "insufficient_quota", retryable: false }, partial: expect.anything() }]);
  expect(bodies.length).toBe(1);
});

test("a stream cut before response.completed is asked again, byte for byte, and then succeeds", async () => {
  const stream = serve((n) => sse([toSse(n === 1 ? head(textEvents("half")) : textEvents("whole"))]));
  const events = await collect(stream);
  expect(events.map((e) => e.type)).toEqual(["text-delta", "retry", "text-delta", "done"]);
  expect(events[1]).toMatchObject({ type: "retry", attempt: 2, maxAttempts: 6, reason: "the stream ended before the response completed" });
  expect(doneText(events)).toBe("whole");
  expect(bodies.length).toBe(2);
  expect(bodies[1]).toBe(bodies[0]!); // the same request, byte for byte
});

test("a stream cut every time ends as one error event after six attempts, keeping the last partial text", async () => {
  const stream = serve(() => sse([toSse(head(textEvents("half")))]));
  const events = await collect(stream);
  expect(events.filter((e) => e.type === "retry").length).toBe(5);
  expect(events.at(-1)).toMatchObject({
    error: { message: "the stream ended before the response completed (after 6 attempts)", retryable: true },
    partial: { parts: [{ type: "text", text: "half" }] },
  });
  expect(bodies.length).toBe(6);
});

test("a retryable error event mid-stream is asked again", async () => {
  const failure = { type: "error", sequence_number: 3, error: { type: "server_error", code: "server_error", message: "An error occurred while processing your request.", param: null } };
  const stream = serve((n) => sse([toSse(n === 1 ? [...head(textEvents("x")), failure] : textEvents("fine"))]));
  const events = await collect(stream);
  expect(events[1]).toMatchObject({ type: "retry", attempt: 2, reason: "An error occurred while processing your request." });
  expect(doneText(events)).toBe("fine");
  expect(bodies.length).toBe(2);
});

test("a server that never answers is abandoned after the idle timeout and asked again", async () => {
  const stream = serve((n, req) => (n === 1 ? new Promise<Response>((resolve) => req.signal.addEventListener("abort", () => resolve(new Response("")))) : sse([toSse(textEvents("awake"))])), { idleTimeoutMs: 300 });
  const started = Date.now();
  const events = await collect(stream);
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(events[0]).toMatchObject({ type: "retry", attempt: 2, reason: "no data from the API for 0.3 s (--idle-timeout)" });
  expect(doneText(events)).toBe("awake");
  expect(bodies.length).toBe(2);
});

test("a stream that stalls after its first events is abandoned after the idle timeout and asked again", async () => {
  const stream = serve((n) => (n === 1 ? sse([toSse(head(textEvents("sta")))], { hang: true }) : sse([toSse(textEvents("flowing"))])), { idleTimeoutMs: 300 });
  const events = await collect(stream);
  expect(events.map((e) => e.type)).toEqual(["text-delta", "retry", "text-delta", "done"]);
  expect(events[1]).toMatchObject({ reason: "no data from the API for 0.3 s (--idle-timeout)" });
  expect(doneText(events)).toBe("flowing");
});

test("a slow stream whose bytes keep coming is never cut by the idle timeout", async () => {
  // Five events 150 ms apart: 750 ms in all, never 300 ms without a byte.
  const stream = serve(() => sse(textEvents("slow but steady").map((e) => toSse([e])), { gapMs: 150 }), { idleTimeoutMs: 300 });
  const started = Date.now();
  expect(doneText(await collect(stream))).toBe("slow but steady");
  expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  expect(bodies.length).toBe(1);
});

test("response.incomplete is not retried: what streamed ends as `incomplete` with the reason", async () => {
  const [created, added, delta] = textEvents("Half an answer");
  const incomplete = { type: "response.incomplete", sequence_number: 5, response: { id: "resp_t", model: "gpt-5", output: [], incomplete_details: { reason: "max_output_tokens" } } };
  const stream = serve(() => sse([toSse([created, added, delta, incomplete])]));
  const events = await collect(stream);
  expect(events.at(-1)).toMatchObject({ type: "incomplete", reason: "max_output_tokens", message: { parts: [{ type: "text", text: "Half an answer" }] } });
  expect(bodies.length).toBe(1);
});

test("the recorded quota error event mid-stream is reported at once, with its code, and not retried", async () => {
  const [recorded] = await recordedResponses("openai-error.1.chunks.txt");
  const stream = serve(() => sse([toSse(recorded!)]));
  const events = await collect(stream);
  expect(events.length).toBe(1);
  expect(events[0]).toMatchObject({ type: "error", error: { code: "insufficient_quota", retryable: false } });
  expect((events[0] as { error: { message: string } }).error.message).toStartWith("You exceeded your current quota");
  expect(bodies.length).toBe(1);
});

test("a 400 with the API's JSON error body becomes an error event with status and code", async () => {
  const message = "Your input exceeds the context window of this model. Please adjust your input and try again.";
  const stream = serve(() => jsonError(400, { message, param: "input", code: "context_length_exceeded" }));
  const events = await collect(stream);
  expect(events).toEqual([{ type: "error", error: { message: `400 ${message}`, status: 400, code: "context_length_exceeded", retryable: false }, partial: expect.anything() }]);
  expect(bodies.length).toBe(1);
});

test("a 401 reads as one line with the API's message", async () => {
  const stream = serve(() => jsonError(401, { message: "Incorrect API key provided: test-key.\nYou can find your API key at https://platform.openai.com.", code: "invalid_api_key" }));
  const [event] = await collect(stream);
  expect(event).toMatchObject({ type: "error", error: { message: "401 Incorrect API key provided: test-key. You can find your API key at https://platform.openai.com.", status: 401, code: "invalid_api_key", retryable: false } });
});

test("a base URL where nothing ever answered is not retried: one error naming the address and what to check, never a throw", async () => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const baseURL = `http://127.0.0.1:${probe.port}/v1`;
  probe.stop(true);
  waits = [];
  const events = await collect(createOpenAIStream({ apiKey: "test-key", baseURL, idleTimeoutMs: 10_000, sleep: noWait }));
  expect(events).toEqual([{ type: "error", error: { message: expect.stringMatching(/ — check the network, or --base-url \/ OPENAI_BASE_URL$/), retryable: true, fault: "unreachable" }, partial: expect.anything() }]);
  expect((events[0] as { error: { message: string } }).error.message).toStartWith(`could not reach ${baseURL}: ECONNREFUSED`);
});

test("an endpoint that answered before and then refuses is tried twice more, quickly, then one error after 3 attempts", async () => {
  const stream = serve(() => sse([toSse(textEvents("hello"))]));
  expect(doneText(await collect(stream))).toBe("hello");
  server!.stop(true);
  const events = await collect(stream);
  expect(events.filter((e) => e.type === "retry").map((e) => [(e as { attempt: number }).attempt, (e as { maxAttempts: number }).maxAttempts])).toEqual([[2, 3], [3, 3]]);
  expect(waits).toEqual([expect.any(Number), expect.any(Number)]);
  expect(waits[0]! + waits[1]!).toBeLessThanOrEqual(1000);
  expect((events.at(-1) as { error: { message: string } }).error.message).toMatch(/^could not reach .* \(after 3 attempts\) — check the network/);
});

test("a 404 from a base URL without /v1 asks whether /v1 was meant; one with /v1, or a 404 for a model, does not", async () => {
  const invalid = (req: Request) => jsonError(404, { message: `Invalid URL (POST ${new URL(req.url).pathname})` });
  serve((_, req) => invalid(req));
  const root = `http://127.0.0.1:${server!.port}`;
  const bare = await collect(createOpenAIStream({ apiKey: "k", baseURL: `${root}/`, idleTimeoutMs: 10_000 }));
  expect(bare).toEqual([{ type: "error", error: { message: `404 Invalid URL (POST /responses) — did you mean ${root}/v1?`, status: 404, retryable: false }, partial: expect.anything() }]);
  const withV1 = await collect(createOpenAIStream({ apiKey: "k", baseURL: `${root}/v1`, idleTimeoutMs: 10_000 }));
  expect((withV1[0] as { error: { message: string } }).error.message).toBe("404 Invalid URL (POST /v1/responses)");
});

test("an abort during a backoff ends the call at once", async () => {
  // A minute's retry-after: only an abort that ends the wait lets the call end within the test's own time.
  const stream = serve(() => new Response("", { status: 503, headers: { "retry-after": "60" } }), { realWaits: true });
  const controller = new AbortController();
  const seen: ModelEvent[] = [];
  for await (const event of stream(request(), controller.signal)) {
    seen.push(event);
    if (event.type === "retry") setTimeout(() => controller.abort(), 50);
  }
  expect(seen.at(-1)).toMatchObject({ type: "error", error: { message: "aborted" } });
});

test("aborting mid-stream ends with an 'aborted' error that keeps the streamed text", async () => {
  const events = textEvents("Hello, ");
  const more = { ...events[2], delta: "wor" };
  const stream = serve(() => sse([toSse(head(events)), toSse([more])], { hang: true }));
  const controller = new AbortController();
  const seen: ModelEvent[] = [];
  for await (const event of stream(request(), controller.signal)) {
    seen.push(event);
    if (seen.filter((e) => e.type === "text-delta").length === 2) controller.abort();
  }
  expect(seen.at(-1)).toEqual({
    type: "error",
    error: { message: "aborted", retryable: false },
    partial: { role: "assistant", model: "gpt-5-2025-08-07", responseId: "resp_t", parts: [{ type: "text", itemId: "msg_t", text: "Hello, wor" }] },
  });
});

test("the body that crosses the wire is stateless: store:false, encrypted reasoning, and no item ids", async () => {
  const stream = serve(() => sse([toSse(textEvents("ok"))]));
  const history: Message[] = [
    { role: "user", text: "list files" },
    {
      role: "assistant",
      model: "gpt-5",
      responseId: "resp_old",
      parts: [
        { type: "reasoning", itemId: "rs_old", summary: ["look"], encrypted: "gAAAsealed" },
        { type: "tool-call", itemId: "fc_old", callId: "call_1", name: "bash", arguments: '{"command":"ls"}' },
      ],
    },
    { role: "tool", results: [{ callId: "call_1", output: "a.txt" }] },
    { role: "assistant", model: "gpt-5", parts: [{ type: "text", itemId: "msg_old", text: "a.txt" }] },
    { role: "user", text: "thanks" },
  ];
  await collect(stream, request(history));
  const sent = JSON.parse(bodies[0]!);
  expect(sent.store).toBe(false);
  expect(sent.stream).toBe(true);
  expect(sent.include).toEqual(["reasoning.encrypted_content"]);
  for (const id of ["rs_old", "fc_old", "msg_old", "resp_old"]) expect(bodies[0]).not.toContain(id);
  for (const item of sent.input) expect(Object.keys(item)).not.toContain("id");
  expect(sent.input.map((i: { type: string }) => i.type)).toEqual(["message", "reasoning", "function_call", "function_call_output", "message", "message"]);
});
