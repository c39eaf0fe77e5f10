import { expect, test } from "bun:test";
import { z } from "zod";
import { buildRequestBody } from "../../support/request-oracle.ts";
import { isReasoningModel } from "../../../src/wire/build-request.ts";
import { defineTool } from "../../../src/tools/tool.ts";
import type { Message } from "../../../src/session/messages.ts";
import { checkInput, sealReasoning } from "../../support/check-input.ts";

const readTool = defineTool({
  name: "read_file",
  description: "Read a file.",
  kind: "read",
  schema: z.object({ path: z.string() }),
  subject: (args) => ({ paths: [args.path] }),
  run: async () => ({ output: "" }),
});

const history: Message[] = [
  { role: "user", text: "read a" },
  {
    role: "assistant",
    model: "gpt-5-2025-08-07",
    responseId: "resp_1",
    parts: [
      { type: "reasoning", itemId: "rs_1", summary: ["plan"], encrypted: sealReasoning("rs_1", "gpt-5") },
      { type: "tool-call", itemId: "fc_1", callId: "call_1", name: "read_file", arguments: '{"path":"a"}' },
    ],
  },
  { role: "tool", results: [{ callId: "call_1", output: "A" }] },
];

test("a reasoning model's body, byte for byte: stable prefix first, history then the trailer last", () => {
  const body = buildRequestBody({ model: "gpt-5", instructions: "You are shiro.", tools: [readTool], messages: history, sessionId: "sess-1", reasoningEffort: "low", trailer: "Tasks:\n- [ ] read a", maxOutputTokens: 4096 });
  expect(JSON.stringify(body)).toBe(
    JSON.stringify({
      model: "gpt-5",
      instructions: "You are shiro.",
      tools: [{ type: "function", name: "read_file", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false }, strict: true }],
      tool_choice: "auto",
      parallel_tool_calls: true,
      reasoning: { effort: "low", summary: "auto" },
      max_output_tokens: 4096,
      store: false,
      include: ["reasoning.encrypted_content"],
      prompt_cache_key: "sess-1",
      stream: true,
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "read a" }] },
        { type: "reasoning", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: sealReasoning("rs_1", "gpt-5") },
        { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a"}' },
        { type: "function_call_output", call_id: "call_1", output: "A" },
        { type: "message", role: "developer", content: [{ type: "input_text", text: "Tasks:\n- [ ] read a" }] },
      ],
    }),
  );
  expect(checkInput(body)).toBeNull();
});

test("the same history gives the same bytes, and a new trailer changes only the end", () => {
  const opts = { model: "gpt-5", instructions: "x", tools: [readTool], messages: history, sessionId: "s" };
  const a = JSON.stringify(buildRequestBody({ ...opts, trailer: "one" }));
  const b = JSON.stringify(buildRequestBody({ ...opts, trailer: "two" }));
  expect(JSON.stringify(buildRequestBody({ ...opts, trailer: "one" }))).toBe(a);
  const common = a.length - '"one"}]}]}'.length;
  expect(b.slice(0, common)).toBe(a.slice(0, common));
});

test("a non-reasoning model gets no reasoning settings, no encrypted-reasoning include, and no replayed reasoning", () => {
  const body = buildRequestBody({ model: "gpt-4.1", instructions: "x", tools: [], messages: history, sessionId: "s" });
  expect(Object.keys(body)).toEqual(["model", "instructions", "tools", "tool_choice", "parallel_tool_calls", "store", "prompt_cache_key", "stream", "input"]);
  expect((body.input as { type: string }[]).map((i) => i.type)).toEqual(["message", "function_call", "function_call_output"]);
});

test("without an effort the model's default applies (only the summary is asked for)", () => {
  const body = buildRequestBody({ model: "o4-mini", instructions: "x", tools: [], messages: [{ role: "user", text: "hi" }], sessionId: "s" });
  expect(body.reasoning).toEqual({ summary: "auto" });
});

test("isReasoningModel", () => {
  for (const m of ["gpt-5", "gpt-5-mini", "gpt-5.1-codex-max", "gpt-5-2025-08-07", "o1", "o3-mini", "o4-mini"]) expect([m, isReasoningModel(m)]).toEqual([m, true]);
  for (const m of ["gpt-4.1", "gpt-4o", "gpt-4o-mini", "o", "omni", "gpt-50"]) expect([m, isReasoningModel(m)]).toEqual([m, false]);
});
