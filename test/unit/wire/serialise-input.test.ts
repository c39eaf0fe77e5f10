import { describe, expect, test } from "bun:test";
import { INTERRUPTED_OUTPUT, serialiseInput } from "../../../src/wire/serialise-input.ts";
import type { Message } from "../../../src/session/messages.ts";
import { checkInput, sealReasoning } from "../../support/check-input.ts";

const enc = sealReasoning("rs_1", "gpt-5");

describe("serialiseInput", () => {
  test("parallel calls go out before their outputs, outputs in call order, no ids", () => {
    const messages: Message[] = [
      { role: "user", text: "read a and b" },
      {
        role: "assistant",
        model: "gpt-5",
        parts: [
          { type: "reasoning", itemId: "rs_1", summary: ["plan"], encrypted: enc },
          { type: "tool-call", itemId: "fc_1", callId: "call_a", name: "read_file", arguments: '{"path":"a"}' },
          { type: "tool-call", itemId: "fc_2", callId: "call_b", name: "read_file", arguments: '{"path":"b"}' },
        ],
      },
      { role: "tool", results: [{ callId: "call_b", output: "B" }, { callId: "call_a", output: "A" }] },
    ];
    const input = serialiseInput(messages, { model: "gpt-5" });
    expect(JSON.stringify(input)).toBe(
      JSON.stringify([
        { type: "message", role: "user", content: [{ type: "input_text", text: "read a and b" }] },
        { type: "reasoning", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: enc },
        { type: "function_call", call_id: "call_a", name: "read_file", arguments: '{"path":"a"}' },
        { type: "function_call", call_id: "call_b", name: "read_file", arguments: '{"path":"b"}' },
        { type: "function_call_output", call_id: "call_a", output: "A" },
        { type: "function_call_output", call_id: "call_b", output: "B" },
      ]),
    );
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
  });

  test("reasoning is dropped for another model, and a call without a result is completed as interrupted", () => {
    const messages: Message[] = [
      { role: "user", text: "go" },
      {
        role: "assistant",
        model: "gpt-5",
        parts: [
          { type: "reasoning", summary: [], encrypted: enc },
          { type: "tool-call", callId: "call_x", name: "bash", arguments: "{}" },
        ],
      },
    ];
    const input = serialiseInput(messages, { model: "gpt-5-mini" });
    expect(input.map((i) => i.type)).toEqual(["message", "function_call", "function_call_output"]);
    expect((input[2] as { output: string }).output).toBe(INTERRUPTED_OUTPUT);
    expect(checkInput({ model: "gpt-5-mini", input })).toBeNull();
  });

  test("assistant text goes back with its phase, and without one when the model gave none", () => {
    const messages: Message[] = [
      { role: "user", text: "go" },
      {
        role: "assistant",
        model: "gpt-5.3-codex",
        parts: [
          { type: "text", text: "Checking first.", phase: "commentary" },
          { type: "text", text: "Done.", phase: "final_answer" },
        ],
      },
      { role: "assistant", model: "gpt-5", parts: [{ type: "text", text: "plain" }] },
      { role: "user", text: "thanks" },
    ];
    const input = serialiseInput(messages, { model: "gpt-5.3-codex" });
    expect(input.slice(1, 4)).toEqual([
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking first." }], phase: "commentary" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }], phase: "final_answer" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "plain" }] },
    ] as any);
    expect(checkInput({ model: "gpt-5.3-codex", input })).toBeNull();
  });
});

describe("reasoning made by a dated snapshot", () => {
  const messages = (answered: string): Message[] => [
    { role: "user", text: "go" },
    {
      role: "assistant",
      model: answered,
      parts: [
        { type: "reasoning", summary: [], encrypted: enc },
        { type: "text", text: "done" },
      ],
    },
  ];
  test("is replayed to its alias (the API answers gpt-5 as gpt-5-2025-08-07)", () => {
    const input = serialiseInput(messages("gpt-5-2025-08-07"), { model: "gpt-5" });
    expect(input.map((i) => i.type)).toEqual(["message", "reasoning", "message"]);
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
  });
  test("is not replayed to a different model sharing a prefix", () => {
    expect(serialiseInput(messages("gpt-5-mini-2025-08-07"), { model: "gpt-5" }).map((i) => i.type)).toEqual(["message", "message"]);
  });
});
