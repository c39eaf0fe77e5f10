/**
 * The wire's CPU cost: assembling a long streamed answer, and serialising a long history into a
 * request body (what every step of a long session pays).
 */
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { createResponseAssembler } from "../src/wire/assemble-response.ts";
import { buildRequestBody } from "../test/support/request-oracle.ts";
import { createIdleWatchdog } from "../src/wire/idle-watchdog.ts";
import type { Message } from "../src/session/messages.ts";
import { medianMs } from "./median.ts";

const DELTAS = 10_000;
const MESSAGES = 2_000;

function recordedStyleStream(): ResponseStreamEvent[] {
  const events: Record<string, unknown>[] = [
    { type: "response.created", sequence_number: 0, response: { id: "resp_b", model: "gpt-5-2025-08-07", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: { id: "msg_b", type: "message", role: "assistant", content: [] } },
  ];
  for (let i = 0; i < DELTAS; i++)
    events.push({ type: "response.output_text.delta", item_id: "msg_b", output_index: 0, content_index: 0, delta: `word${i} `, logprobs: [], obfuscation: "xYz12" });
  events.push({ type: "response.completed", response: { id: "resp_b", model: "gpt-5-2025-08-07", output: [], usage: null } });
  return events as unknown as ResponseStreamEvent[];
}

function longHistory(): Message[] {
  const messages: Message[] = [];
  for (let i = 0; messages.length < MESSAGES; i++) {
    messages.push({ role: "user", text: `step ${i}: look at file ${i}` });
    messages.push({
      role: "assistant",
      model: "gpt-5",
      parts: [
        { type: "reasoning", itemId: `rs_${i}`, summary: ["plan"], encrypted: "gAAA".padEnd(1200, "x") },
        { type: "tool-call", itemId: `fc_${i}`, callId: `call_${i}`, name: "read_file", arguments: `{"path":"src/file${i}.ts"}` },
      ],
    });
    messages.push({ role: "tool", results: [{ callId: `call_${i}`, output: "line\n".repeat(40) }] });
    messages.push({ role: "assistant", model: "gpt-5", parts: [{ type: "text", text: `file ${i} looks fine` }] });
  }
  return messages.slice(0, MESSAGES);
}

/** One 10,000-delta response streamed over loopback through the SDK, with a plain and a watched fetch. */
async function overLoopback(stream: ResponseStreamEvent[]): Promise<{ plain: number; watched: number }> {
  const bytes = new TextEncoder().encode(stream.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
  // Sent in 4 KiB chunks, as a real stream arrives, so the watchdog is touched per chunk.
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(
        new ReadableStream({
          start(c) {
            for (let i = 0; i < bytes.length; i += 4096) c.enqueue(bytes.slice(i, i + 4096));
            c.close();
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
  });
  const { OpenAI } = await import("openai");
  const once = async (fetchFn: typeof fetch) => {
    const client = new OpenAI({ apiKey: "k", baseURL: `http://127.0.0.1:${server.port}/v1`, maxRetries: 0, fetch: fetchFn });
    const assembler = createResponseAssembler("gpt-5");
    for await (const event of await client.responses.create({ model: "gpt-5", input: "hi", stream: true })) assembler.push(event);
  };
  const plain = await medianMs(15, () => once(fetch));
  const watched = await medianMs(15, async () => {
    const idle = createIdleWatchdog(120_000);
    await once(idle.fetch);
    idle.stop();
  });
  server.stop(true);
  return { plain, watched };
}

export async function bench(): Promise<string[]> {
  const stream = recordedStyleStream();
  const loopback = await overLoopback(stream);
  const assemble = await medianMs(20, () => {
    const assembler = createResponseAssembler("gpt-5");
    for (const event of stream) assembler.push(event);
  });
  const messages = longHistory();
  const serialise = await medianMs(20, () => JSON.stringify(buildRequestBody({ model: "gpt-5", instructions: "x", tools: [], messages, sessionId: "s" })));
  return [
    `assemble ${DELTAS.toLocaleString("en")} text deltas: median ${assemble.toFixed(2)} ms`,
    `stream ${DELTAS.toLocaleString("en")} deltas over loopback through the SDK: median ${loopback.plain.toFixed(1)} ms plain fetch, ${loopback.watched.toFixed(1)} ms with the idle watchdog`,
    `build + stringify request body of ${MESSAGES.toLocaleString("en")} messages: median ${serialise.toFixed(2)} ms`,
  ];
}
