import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/session/messages.ts";
import { dropExchanges } from "../../src/context/drop-exchanges.ts";
import { dropReasoning } from "../../src/context/drop-reasoning.ts";
import { serialiseInput } from "../../src/wire/serialise-input.ts";
import { checkInput, sealReasoning } from "../support/check-input.ts";
import { exchange, history } from "../support/history-builders.ts";

type Item = Record<string, any>;

describe("step 3: drop whole oldest exchanges", () => {
  const h: Message[] = [
    { role: "user", text: "THE TASK" },
    {
      role: "assistant",
      model: "gpt-5",
      parts: [
        { type: "text", text: "Reading both files.\nthen more" },
        { type: "tool-call", callId: "a", name: "read_file", arguments: '{"path":"a.ts"}' },
        { type: "tool-call", callId: "b", name: "bash", arguments: '{"command":"ls"}' },
      ],
    },
    { role: "tool", results: [{ callId: "b", output: "a.ts\nb.ts" }] }, // "a" never got a result
    { role: "user", text: "go on" },
    { role: "assistant", model: "gpt-5", parts: [{ type: "tool-call", callId: "c", name: "grep", arguments: '{"pattern":"x"}' }] },
    ...exchange(4),
    ...exchange(5),
  ];

  test("everything droppable goes, but never a user message, and never a call apart from its result", () => {
    const { messages, droppedExchanges } = dropExchanges(h, h, { model: "gpt-5", excessChars: 1e9, keepRecent: 1, step: 1 });
    expect(droppedExchanges).toBe(3);
    const input = serialiseInput(messages, { model: "gpt-5" }) as Item[];
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
    const texts = input.filter((i) => i.type === "message").map((i) => i.content[0].text as string);
    expect(texts[0]).toBe("THE TASK");
    expect(texts).toContain("go on");
    expect(input.filter((i) => i.type === "function_call").map((i) => i.call_id)).toEqual(["call_5"]);
    expect(texts[1]).toBe(
      "[shiro: 1 earlier step left out of this request to fit the context window. Their effects on files and the system remain; do not repeat them unless needed. What they did:\n" +
        '- said: "Reading both files."\n- read_file a.ts → interrupted, not re-run\n- bash `ls` → ok (9 chars): a.ts]',
    );
    expect(texts[3]).toContain('- grep "x" → interrupted, not re-run\n- read_file src/f4.ts → ok (');
  });

  test("only as much as needed, rounded up to whole steps, oldest first", () => {
    const long = history("task", 20);
    const { messages, droppedExchanges } = dropExchanges(long, long, { model: "gpt-5", excessChars: 1, keepRecent: 4, step: 8 });
    expect(droppedExchanges).toBe(8);
    const calls = (serialiseInput(messages, { model: "gpt-5" }) as Item[]).filter((i) => i.type === "function_call");
    expect(calls[0]!.call_id).toBe("call_9");
  });
});

describe("step 2: drop reasoning", () => {
  test("every response's reasoning but the latest goes; the wire stays valid across a model switch", () => {
    const h: Message[] = [{ role: "user", text: "t" }, ...exchange(1, { reasoning: true, model: "o3" }), ...exchange(2, { reasoning: true }), ...exchange(3, { reasoning: true })];
    const out = dropReasoning(h);
    const input = serialiseInput(out, { model: "gpt-5" }) as Item[];
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
    expect(input.filter((i) => i.type === "reasoning").map((i) => i.encrypted_content)).toEqual([sealReasoning("rs_3", "gpt-5")]);
    expect(serialiseInput(h, { model: "gpt-5" }).filter((i) => i.type === "reasoning")).toHaveLength(2);
  });
});
