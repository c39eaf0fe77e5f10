import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/agent/messages.ts";
import { repairPending } from "../../src/store/repair-pending.ts";
import { INTERRUPTED_OUTPUT, serialiseInput } from "../../src/wire/serialise-input.ts";
import { everyKind } from "../support/session-fixtures.ts";

const call = (callId: string) => ({ type: "tool-call" as const, callId, name: "bash", arguments: '{"command":"make deploy"}' });

describe("repairPending", () => {
  test("a call whose process died gets a synthetic interrupted result; nothing is re-run or dropped", () => {
    const messages: Message[] = [
      { role: "user", text: "deploy" },
      { role: "assistant", model: "gpt-5", parts: [call("c1")] },
    ];
    const { messages: repaired, repaired: ids } = repairPending(messages);
    expect(ids).toEqual(["c1"]);
    expect(repaired).toEqual([...messages, { role: "tool", results: [{ callId: "c1", output: INTERRUPTED_OUTPUT, isError: true }] }]);
    expect(INTERRUPTED_OUTPUT).toContain("outcome is unknown");
    expect(messages).toHaveLength(2); // the input is untouched
  });

  test("a partial tool message keeps its results and gains the missing ones", () => {
    const messages: Message[] = [
      { role: "assistant", model: "gpt-5", parts: [call("c1"), call("c2"), call("c3")] },
      { role: "tool", results: [{ callId: "c1", output: "ok" }] },
      { role: "user", text: "what happened?" },
    ];
    const { messages: repaired, repaired: ids } = repairPending(messages);
    expect(ids).toEqual(["c2", "c3"]);
    expect(repaired).toEqual([
      messages[0]!,
      {
        role: "tool",
        results: [
          { callId: "c1", output: "ok" },
          { callId: "c2", output: INTERRUPTED_OUTPUT, isError: true },
          { callId: "c3", output: INTERRUPTED_OUTPUT, isError: true },
        ],
      },
      messages[2]!,
    ]);
  });

  test("a complete history comes back unchanged", () => {
    const messages = everyKind();
    expect(repairPending(messages)).toEqual({ messages, repaired: [] });
  });

  test("the model reads the same words for a gap whether it was repaired on resume or filled on the wire", () => {
    const messages: Message[] = [
      { role: "user", text: "deploy" },
      { role: "assistant", model: "gpt-5", parts: [call("c1")] },
    ];
    const onTheWire = serialiseInput(messages, { model: "gpt-5" });
    expect(serialiseInput(repairPending(messages).messages, { model: "gpt-5" })).toEqual(onTheWire);
    expect(onTheWire.at(-1)).toEqual({ type: "function_call_output", call_id: "c1", output: INTERRUPTED_OUTPUT });
  });
});
