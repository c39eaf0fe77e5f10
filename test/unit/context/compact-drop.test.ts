import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/session/messages.ts";
import { compactForWire, type CompactOptions } from "../../../src/context/compact.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { checkInput, sealReasoning } from "../../support/check-input.ts";
import { exchange } from "../../support/history-builders.ts";

type Item = Record<string, any>;
const compact = (h: readonly Message[], o: Partial<CompactOptions>) =>
  compactForWire(h, { model: "gpt-5", threshold: 120_000, window: 400_000, harder: false, instructionsChars: 0, ...o }).input as Item[];

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
    // After an overflow with a tiny window: only the newest two exchanges are kept.
    const input = compact(h, { threshold: 10, window: 100, harder: true });
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
    const texts = input.filter((i) => i.type === "message").map((i) => i.content[0].text as string);
    expect(texts[0]).toBe("THE TASK");
    expect(texts).toContain("go on");
    expect(input.filter((i) => i.type === "function_call").map((i) => i.call_id)).toEqual(["call_4", "call_5"]);
    expect(texts[1]).toBe(
      "[shiro: 1 earlier step left out of this request to fit the context window. Their effects on files and the system remain; do not repeat them unless needed. What they did:\n" +
        '- said: "Reading both files."\n- read_file a.ts → interrupted, not re-run\n- bash `ls` → ok (9 chars): a.ts]',
    );
    expect(texts[3]).toBe(
      "[shiro: 1 earlier step left out of this request to fit the context window. Their effects on files and the system remain; do not repeat them unless needed. What they did:\n" +
        '- grep "x" → interrupted, not re-run]',
    );
  });

  test("only as much as needed, in steps of an eighth of the threshold, oldest first, and the drop moves only by such steps", () => {
    const long: Message[] = [{ role: "user", text: "task" }];
    const firstOnWire: number[] = [];
    for (let n = 1; n <= 400; n++) {
      long.push(...exchange(n, { output: "x".repeat(1_000) }));
      const input = compact(long, { threshold: 8_000 });
      expect(checkInput({ model: "gpt-5", input })).toBeNull();
      firstOnWire.push(Number(input.find((i) => i.type === "function_call")!.call_id.slice(5)));
    }
    expect(firstOnWire).toEqual([...firstOnWire].sort((a, b) => a - b));
    const moves = firstOnWire.filter((first, i) => i > 0 && first !== firstOnWire[i - 1]!);
    // Calls and stubs alone outgrow 8,000 tokens at ~130 exchanges: then the drop moves about every 16
    // exchanges; from ~270 on, the notes alone outgrow it, and the drop moves by groups of 16.
    expect(moves.length).toBeGreaterThan(10);
    expect(moves.length).toBeLessThan(25);
    expect(firstOnWire.at(-1)).toBeGreaterThan(100);
  });
});

describe("step 2: drop reasoning", () => {
  test("every response's reasoning but the latest goes; the wire stays valid across a model switch", () => {
    const h: Message[] = [{ role: "user", text: "t" }, ...exchange(1, { reasoning: true, model: "o3" }), ...exchange(2, { reasoning: true }), ...exchange(3, { reasoning: true })];
    const input = compact(h, { threshold: 10 });
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
    expect(input.filter((i) => i.type === "reasoning").map((i) => i.encrypted_content)).toEqual([sealReasoning("rs_3", "gpt-5")]);
    expect(serialiseInput(h, { model: "gpt-5" }).filter((i) => i.type === "reasoning")).toHaveLength(2);
  });
});
