/**
 * The wire's CPU cost: assembling a long streamed answer, and serialising a long history into a
 * request body (what every step of a long session pays).
 */
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { createResponseAssembler } from "../src/wire/assemble-response.ts";
import { buildRequestBody } from "../src/wire/build-request.ts";
import type { Message } from "../src/agent/messages.ts";
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

export async function bench(): Promise<string[]> {
  const stream = recordedStyleStream();
  const assemble = await medianMs(20, () => {
    const assembler = createResponseAssembler("gpt-5");
    for (const event of stream) assembler.push(event);
  });
  const messages = longHistory();
  const serialise = await medianMs(20, () => JSON.stringify(buildRequestBody({ model: "gpt-5", instructions: "x", tools: [], messages, sessionId: "s" })));
  return [
    `assemble ${DELTAS.toLocaleString("en")} text deltas: median ${assemble.toFixed(2)} ms`,
    `build + stringify request body of ${MESSAGES.toLocaleString("en")} messages: median ${serialise.toFixed(2)} ms`,
  ];
}
