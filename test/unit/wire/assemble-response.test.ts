import { describe, expect, test } from "bun:test";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { createResponseAssembler } from "../../../src/wire/assemble-response.ts";
import type { ModelEvent } from "../../../src/wire/model-stream.ts";
import { recordedResponses } from "../../support/recorded-stream.ts";

/** Feeds a whole recorded response and returns everything the assembler emitted. */
function assemble(events: readonly ResponseStreamEvent[], requestedModel = "gpt-5") {
  const assembler = createResponseAssembler(requestedModel);
  const emitted: ModelEvent[] = [];
  for (const event of events) {
    const out = assembler.push(event);
    if (out) emitted.push(out);
  }
  return { emitted, assembler };
}

const final = (emitted: ModelEvent[]) => emitted.at(-1)!;
const deltas = (emitted: ModelEvent[], type: "text-delta" | "reasoning-delta") =>
  emitted.flatMap((e) => (e.type === type ? [e.text] : [])).join("");

const SUMMARY =
  "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.";

describe("assembling the recorded reasoning + tool loop (gpt-5.1-codex-max)", async () => {
  const responses = await recordedResponses("openai-reasoning-encrypted-content.1.chunks.txt");
  // The three different ciphertexts the stream carries for the one reasoning item.
  const encrypted = (type: "response.output_item.added" | "response.output_item.done" | "response.completed") =>
    responses[0]!.flatMap((e) => {
      if (e.type !== type) return [];
      if (e.type === "response.completed") return e.response.output.flatMap((o) => (o.type === "reasoning" ? [o.encrypted_content] : []));
      return e.type !== "response.output_item.added" && e.type !== "response.output_item.done" ? [] : e.item.type === "reasoning" ? [e.item.encrypted_content] : [];
    })[0]!;

  test("the four responses are in the fixture", () => expect(responses.length).toBe(4));

  test("response 1: reasoning with its summary and the encrypted content from output_item.done, then a call", () => {
    const { emitted } = assemble(responses[0]!);
    const fromDone = encrypted("response.output_item.done");
    expect(fromDone).not.toBe(encrypted("response.output_item.added"));
    expect(fromDone).not.toBe(encrypted("response.completed"));
    expect(deltas(emitted, "reasoning-delta")).toBe(SUMMARY);
    expect(deltas(emitted, "text-delta")).toBe("");
    expect(JSON.stringify(final(emitted))).toBe(
      JSON.stringify({
        type: "done",
        message: {
          role: "assistant",
          model: "gpt-5.1-codex-max",
          responseId: "resp_01830d662ab3856501693c321345c88190b0de00f3b9975691",
          parts: [
            { type: "reasoning", itemId: "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9", summary: [SUMMARY], encrypted: fromDone },
            {
              type: "tool-call",
              itemId: "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
              callId: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
              name: "calculator",
              arguments: '{"a":12,"b":7,"op":"add"}',
            },
          ],
          usage: { inputTokens: 134, cachedTokens: 0, outputTokens: 28, reasoningTokens: 0 },
        },
      }),
    );
  });

  test("responses 2 and 3: one call each, arguments exactly as streamed", () => {
    const calls = [responses[1]!, responses[2]!].map((r) => {
      const done = final(assemble(r).emitted);
      if (done.type !== "done") throw new Error(`expected done, got ${done.type}`);
      return done.message.parts;
    });
    expect(calls).toEqual([
      [{ type: "tool-call", itemId: "fc_01830d662ab3856501693c32165be4819098c08f205f8932ef", callId: "call_Q6pW65MUgW9vF59BmItYGos3", name: "calculator", arguments: '{"a":19,"b":3,"op":"multiply"}' }],
      [{ type: "tool-call", itemId: "fc_01830d662ab3856501693c32173d5081908f2121e1c3ff2901", callId: "call_Zl5vIMnD7dVAjgU6FkhmiCZh", name: "calculator", arguments: '{"a":57,"b":10,"op":"multiply"}' }],
    ]);
  });

  test("response 4: the final answer streams as text deltas and ends as one text part", () => {
    const { emitted } = assemble(responses[3]!);
    expect(deltas(emitted, "text-delta")).toBe("The final result is **570**.");
    expect(JSON.stringify(final(emitted))).toBe(
      JSON.stringify({
        type: "done",
        message: {
          role: "assistant",
          model: "gpt-5.1-codex-max",
          responseId: "resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a",
          parts: [{ type: "text", itemId: "msg_01830d662ab3856501693c32183a488190a612c410a0a39823", text: "The final result is **570**." }],
          usage: { inputTokens: 299, cachedTokens: 0, outputTokens: 12, reasoningTokens: 0 },
        },
      }),
    );
  });
});

test("phase stream: two messages become two text parts in output order, cached and reasoning tokens counted", async () => {
  const [events] = await recordedResponses("openai-phase.1.chunks.txt");
  const { emitted } = assemble(events!);
  const done = final(emitted);
  if (done.type !== "done") throw new Error("expected done");
  const texts = done.message.parts.map((p) => (p.type === "text" ? p.text : `<${p.type}>`));
  expect(texts.length).toBe(2);
  expect(texts[0]).toStartWith("Got it — I’ll quickly check reliable");
  expect(texts[1]).toStartWith("Here are a few **AI headlines");
  // Each message keeps its phase, so it can be sent back and the answer told from the commentary.
  expect(done.message.parts.map((p) => (p.type === "text" ? p.phase : undefined))).toEqual(["commentary", "final_answer"]);
  const phases = emitted.flatMap((e) => (e.type === "text-delta" ? [`${e.phase}:${e.text}`] : []));
  expect(phases).toEqual(["commentary:Got", "commentary: it", "final_answer:Here are a", "final_answer: few **AI"]);
  // The recording keeps only the first two deltas of each message; the done events carry the whole text.
  expect(deltas(emitted, "text-delta")).toBe("Got itHere are a few **AI");
  expect(done.message.model).toBe("gpt-5.3-codex");
  expect(done.message.usage).toEqual({ inputTokens: 7112, cachedTokens: 3072, outputTokens: 463, reasoningTokens: 64 });
});

test("error stream: the nested error event ends the response as a non-retryable ModelError; response.failed after it is ignored", async () => {
  const [events] = await recordedResponses("openai-error.1.chunks.txt");
  const { emitted } = assemble(events!);
  expect(emitted.length).toBe(1);
  expect(JSON.stringify(emitted[0])).toBe(
    JSON.stringify({
      type: "error",
      error: {
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        code: "insufficient_quota",
        retryable: false,
      },
      partial: { role: "assistant", model: "gpt-5-nano-2025-08-07", responseId: "resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424", parts: [] },
    }),
  );
});

// A synthetic stream shaped like the recorded ones: one reasoning item, then two parallel calls whose
// argument deltas interleave, and an arguments.done without `name`.
const ev = (e: Record<string, unknown>) => e as unknown as ResponseStreamEvent;
const call = (i: number, id: string, callId: string, name: string, args = "") =>
  ({ id, type: "function_call", status: args ? "completed" : "in_progress", arguments: args, call_id: callId, name });
const parallel: ResponseStreamEvent[] = [
  ev({ type: "response.created", response: { id: "resp_p", model: "gpt-5-2025-08-07" } }),
  ev({ type: "response.output_item.added", output_index: 0, item: { id: "rs_p", type: "reasoning", summary: [], encrypted_content: "partial" } }),
  ev({ type: "response.reasoning_summary_part.added", item_id: "rs_p", output_index: 0, summary_index: 0 }),
  ev({ type: "response.reasoning_summary_text.delta", item_id: "rs_p", output_index: 0, summary_index: 0, delta: "Read both", obfuscation: "x" }),
  ev({ type: "response.reasoning_summary_part.added", item_id: "rs_p", output_index: 0, summary_index: 1 }),
  ev({ type: "response.reasoning_summary_text.delta", item_id: "rs_p", output_index: 0, summary_index: 1, delta: "Then compare" }),
  ev({ type: "response.output_item.done", output_index: 0, item: { id: "rs_p", type: "reasoning", summary: [{ type: "summary_text", text: "Read both" }, { type: "summary_text", text: "Then compare" }], encrypted_content: "sealed" } }),
  ev({ type: "response.output_item.added", output_index: 1, item: call(1, "fc_a", "call_a", "read_file") }),
  ev({ type: "response.output_item.added", output_index: 2, item: call(2, "fc_b", "call_b", "read_file") }),
  ev({ type: "response.function_call_arguments.delta", item_id: "fc_a", output_index: 1, delta: '{"path":' }),
  ev({ type: "response.function_call_arguments.delta", item_id: "fc_b", output_index: 2, delta: '{"path":"b"}' }),
  ev({ type: "response.function_call_arguments.delta", item_id: "fc_a", output_index: 1, delta: '"a"}' }),
  ev({ type: "response.function_call_arguments.done", item_id: "fc_b", output_index: 2, arguments: '{"path":"b"}' }),
  ev({ type: "response.function_call_arguments.done", item_id: "fc_a", output_index: 1, arguments: '{"path":"a"}' }),
  ev({ type: "response.output_item.done", output_index: 2, item: call(2, "fc_b", "call_b", "read_file", '{"path":"b"}') }),
  ev({ type: "response.output_item.done", output_index: 1, item: call(1, "fc_a", "call_a", "read_file", '{"path":"a"}') }),
  ev({ type: "response.completed", response: { id: "resp_p", model: "gpt-5-2025-08-07", output: [], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 15 } } }),
];

test("parallel calls keep output order whatever order their events finish in; summary parts stream as paragraphs", () => {
  const { emitted } = assemble(parallel);
  expect(deltas(emitted, "reasoning-delta")).toBe("Read both\n\nThen compare");
  const done = final(emitted);
  if (done.type !== "done") throw new Error("expected done");
  expect(done.message).toEqual({
    role: "assistant",
    model: "gpt-5-2025-08-07",
    responseId: "resp_p",
    parts: [
      { type: "reasoning", itemId: "rs_p", summary: ["Read both", "Then compare"], encrypted: "sealed" },
      { type: "tool-call", itemId: "fc_a", callId: "call_a", name: "read_file", arguments: '{"path":"a"}' },
      { type: "tool-call", itemId: "fc_b", callId: "call_b", name: "read_file", arguments: '{"path":"b"}' },
    ],
    usage: { inputTokens: 10, cachedTokens: 4, outputTokens: 5, reasoningTokens: 3 },
  });
});

test("partial() holds what streamed so far, and never the incomplete encrypted content of output_item.added", () => {
  const { assembler } = assemble(parallel.slice(0, 12));
  expect(assembler.partial().parts).toEqual([
    { type: "reasoning", itemId: "rs_p", summary: ["Read both", "Then compare"], encrypted: "sealed" },
    { type: "tool-call", itemId: "fc_a", callId: "call_a", name: "read_file", arguments: '{"path":"a"}' },
    { type: "tool-call", itemId: "fc_b", callId: "call_b", name: "read_file", arguments: '{"path":"b"}' },
  ]);
  const early = assemble(parallel.slice(0, 4)).assembler.partial();
  expect(early.parts).toEqual([{ type: "reasoning", itemId: "rs_p", summary: ["Read both"] }]);
  expect(early.model).toBe("gpt-5-2025-08-07");
});

test("an incomplete response ends as `incomplete` with its reason, its usage and the text so far", () => {
  const { emitted } = assemble([
    ev({ type: "response.created", response: { id: "resp_i", model: "gpt-5" } }),
    ev({ type: "response.output_item.added", output_index: 0, item: { id: "msg_i", type: "message", role: "assistant", content: [] } }),
    ev({ type: "response.output_text.delta", item_id: "msg_i", output_index: 0, content_index: 0, delta: "Half an ans", logprobs: [] }),
    ev({
      type: "response.incomplete",
      response: { id: "resp_i", model: "gpt-5", incomplete_details: { reason: "max_output_tokens" }, usage: { input_tokens: 9, input_tokens_details: { cached_tokens: 0 }, output_tokens: 16, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 25 } },
    }),
  ]);
  expect(emitted).toEqual([
    { type: "text-delta", text: "Half an ans" },
    {
      type: "incomplete",
      reason: "max_output_tokens",
      message: {
        role: "assistant",
        model: "gpt-5",
        responseId: "resp_i",
        parts: [{ type: "text", itemId: "msg_i", text: "Half an ans" }],
        usage: { inputTokens: 9, cachedTokens: 0, outputTokens: 16, reasoningTokens: 0 },
      },
    },
  ]);
});

test("item types shiro does not use (hosted tools) are named in otherItems, never dropped without a word", () => {
  const search = { id: "ws_1", type: "web_search_call", status: "completed", action: { type: "search", query: "today" } };
  const { emitted } = assemble([
    ev({ type: "response.created", response: { id: "resp_w", model: "gpt-5" } }),
    ev({ type: "response.output_item.added", output_index: 0, item: { ...search, status: "in_progress" } }),
    ev({ type: "response.output_item.done", output_index: 0, item: search }),
    ev({ type: "response.completed", response: { id: "resp_w", model: "gpt-5", output: [] } }),
  ]);
  expect(emitted).toEqual([{ type: "done", message: { role: "assistant", model: "gpt-5", responseId: "resp_w", parts: [], otherItems: ["web_search_call"] } }]);
});
