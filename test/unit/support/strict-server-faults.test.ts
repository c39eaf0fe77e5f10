import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { parseSse, postResponses, userMessage, jsonOf } from "../../support/sse-client.ts";
import { QUOTA_MESSAGE } from "../../support/faults.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
const body = { model: "plain", stream: true, input: [userMessage("hi")] };

beforeAll(async () => {
  server = await startStrictServer({ models: { plain: () => ({ text: "one two three four five six seven" }) } });
});
afterAll(() => server.stop());

const events = async (res: Response) => parseSse(await res.text()).map((f) => f.event);

describe("fault injection", () => {
  test("429 with retry-after and the rate-limit body, then the next request is served", async () => {
    server.inject({ status: 429, retryAfter: 2 });
    const limited = await postResponses(server.url, body);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect((await jsonOf(limited)).error).toMatchObject({ code: "rate_limit_exceeded", type: "tokens" });
    const next = await postResponses(server.url, body);
    expect(next.status).toBe(200);
    expect((await events(next)).at(-1)).toBe("response.completed");
  });

  test("500 with the server_error body; the SDK retries it and then succeeds", async () => {
    server.inject({ status: 500 });
    const failed = await postResponses(server.url, body);
    expect(failed.status).toBe(500);
    expect((await jsonOf(failed)).error).toEqual({
      message: "The server had an error while processing your request. Sorry about that!",
      type: "server_error",
      param: null,
      code: null,
    });

    server.inject({ status: 500 });
    const before = server.requests.length;
    const client = new OpenAI({ apiKey: "k", baseURL: server.url, maxRetries: 1 });
    const stream = await client.responses.create({ ...body, input: body.input as any, stream: true });
    let done = false;
    for await (const event of stream) done ||= event.type === "response.completed";
    expect(done).toBe(true);
    expect(server.requests.slice(before).map((r) => r.status)).toEqual([500, 200]);
  });

  test("cut closes the stream after N events, before response.completed", async () => {
    server.inject({ cut: 5 });
    const res = await postResponses(server.url, body);
    expect(res.status).toBe(200);
    expect(await events(res)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
    ]);
  });

  test("reset sends N events, then resets the connection: the client reads them, then ECONNRESET", async () => {
    server.inject({ reset: 3 });
    const res = await postResponses(server.url, body);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = "";
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        text += new TextDecoder().decode(value);
      }
    })().catch((e: { code?: string }) => e.code);
    expect(failure).toBe("ECONNRESET");
    expect(parseSse(text).map((f) => f.event)).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
  });

  test("errorEvent: nested `error` event then response.failed, as recorded; the SDK throws", async () => {
    server.inject({ errorEvent: true });
    const frames = parseSse(await (await postResponses(server.url, body)).text());
    expect(frames.map((f) => f.event)).toEqual(["response.created", "response.in_progress", "error", "response.failed"]);
    expect(frames[2]!.data).toEqual({
      type: "error",
      sequence_number: 2,
      error: { type: "server_error", code: "server_error", message: expect.stringContaining("An error occurred"), param: null },
    });
    expect(frames[3]!.data.response).toMatchObject({ status: "failed", error: { code: "server_error" }, output: [] });

    server.inject({ errorEvent: true, afterEventCount: 5, code: "insufficient_quota", message: "quota gone" });
    const client = new OpenAI({ apiKey: "k", baseURL: server.url, maxRetries: 0 });
    const seen: string[] = [];
    const failure = await (async () => {
      try {
        for await (const event of await client.responses.create({ ...body, input: body.input as any, stream: true })) seen.push(event.type);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure!.message).toContain("quota gone");
    expect(seen).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added", "response.output_text.delta"]);
  });

  test("delayMs holds the answer; with afterEventCount it stalls mid-stream", async () => {
    server.inject({ delayMs: 150 });
    let start = performance.now();
    const res = await postResponses(server.url, body);
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);
    await res.text();

    // The events before the stall come at once: with a stream that then hangs for good, the first read still returns.
    server.inject({ hang: true, afterEventCount: 3 });
    const hung = (await postResponses(server.url, body)).body!.getReader();
    expect(new TextDecoder().decode((await hung.read()).value)).toContain("response.created");
    await hung.cancel();

    server.inject({ delayMs: 200, afterEventCount: 3 });
    start = performance.now();
    const stalled = await postResponses(server.url, body);
    const reader = stalled.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("response.created");
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(performance.now() - start).toBeGreaterThanOrEqual(190);
    expect(rest).toContain("response.completed");
  });

  test("paceMs spaces every event, so a client can interrupt mid-stream", async () => {
    const paced = await startStrictServer({ paceMs: 15, models: { plain: () => ({ text: "one two three four five six seven" }) } });
    const start = performance.now();
    const count = (await events(await postResponses(paced.url, body))).length;
    expect(performance.now() - start).toBeGreaterThanOrEqual((count - 1) * 15 - 5);
    await paced.stop();
  });
});

describe("faults for unattended runs", () => {
  test("hang: accepts and never answers until the client leaves", async () => {
    server.inject({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const start = performance.now();
    const failure = await postResponses(server.url, body, { signal: controller.signal }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(performance.now() - start).toBeGreaterThanOrEqual(190);
    expect((await postResponses(server.url, body)).status).toBe(200);
  });

  test("hang with afterEventCount: the stream goes silent after that many events", async () => {
    server.inject({ hang: true, afterEventCount: 3 });
    const controller = new AbortController();
    const res = await postResponses(server.url, body, { signal: controller.signal });
    const reader = res.body!.getReader();
    let text = "";
    const deadline = Bun.sleep(300).then(() => "silent" as const);
    for (;;) {
      const chunk = await Promise.race([reader.read(), deadline]);
      if (chunk === "silent" || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
    expect(parseSse(text).map((f) => f.event)).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
  });

  test("incomplete: the text streams, then response.incomplete with the reason and usage, never completed", async () => {
    server.inject({ incomplete: "max_output_tokens" });
    const frames = parseSse(await (await postResponses(server.url, body)).text());
    expect(frames.map((f) => f.event)).toContain("response.output_text.delta");
    expect(frames.map((f) => f.event)).not.toContain("response.completed");
    expect(frames.at(-1)!.data.response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: { output_tokens: expect.any(Number) } });
  });

  test("onlyItems: the response holds only the given items", async () => {
    const search = { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "news" } };
    server.inject({ onlyItems: [search] });
    const frames = parseSse(await (await postResponses(server.url, body)).text());
    expect(frames.map((f) => f.event)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.output_item.done", "response.completed"]);
    expect(frames.at(-1)!.data.response.output).toEqual([search]);
  });

  test("status 429 with quota: the insufficient_quota body; any status can carry retry-after(-ms)", async () => {
    server.inject({ status: 429, quota: true }, { status: 503, retryAfterMs: 1500 });
    const quota = await postResponses(server.url, body);
    expect(quota.status).toBe(429);
    expect((await jsonOf(quota)).error).toMatchObject({ type: "insufficient_quota", code: "insufficient_quota", message: QUOTA_MESSAGE });
    const busy = await postResponses(server.url, body);
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after-ms")).toBe("1500");
  });
});
