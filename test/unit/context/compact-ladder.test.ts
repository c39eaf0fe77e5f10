import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/session/messages.ts";
import { compactForWire, type CompactOptions } from "../../../src/context/compact.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { checkInput } from "../../support/check-input.ts";
import { exchange, history } from "../../support/history-builders.ts";

type Item = Record<string, any>;
const opts = (o: Partial<CompactOptions>): CompactOptions => ({ model: "gpt-5", threshold: 120_000, window: 400_000, harder: false, instructionsChars: 0, ...o });
const wire = (r: { input: readonly unknown[] }) => {
  const input = r.input as Item[];
  expect(checkInput({ model: "gpt-5", input })).toBeNull();
  return input;
};
const ofType = (input: Item[], type: string) => input.filter((i) => i.type === type);
const fullOutputs = (input: Item[]) => ofType(input, "function_call_output").filter((i) => !i.output.startsWith("[output of")).length;

describe("the compaction ladder", () => {
  test("under the threshold nothing changes and no compaction is reported", () => {
    const h = history("task", 10);
    const r = compactForWire(h, opts({}));
    expect(r.compaction).toBeUndefined();
    expect(JSON.stringify(wire(r))).toBe(JSON.stringify(serialiseInput(h, { model: "gpt-5" })));
    // Nor when only the newest step crosses it: the request may carry the threshold plus one step.
    const crossing = [...history("task", 10), ...exchange(11, { output: "x".repeat(40_000) })];
    expect(compactForWire(crossing, opts({ threshold: 20_000 })).compaction).toBeUndefined();
    expect(r.tokens).toBeGreaterThan((10 * 5_000) / 4);
  });

  test("step 2 only when eliding is not enough: then only the latest response keeps its reasoning", () => {
    const big = history("task", 30, { reasoning: true, output: "x".repeat(8192) });
    expect(ofType(wire(compactForWire(big, opts({ threshold: 40_000 }))), "reasoning")).toHaveLength(30);

    // Outputs too short to elide: only dropping reasoning brings 30 steps under 4,000 tokens.
    const small = history("task", 30, { reasoning: true, output: "x".repeat(300) });
    const r = compactForWire(small, opts({ threshold: 4_000 }));
    const input = wire(r);
    expect(ofType(input, "reasoning")).toHaveLength(1);
    expect(input.findIndex((i) => i.type === "reasoning")).toBe(input.findIndex((i) => i.call_id === "call_30") - 1);
    expect(ofType(input, "function_call")).toHaveLength(30);
    expect(r.compaction).toBeDefined();
  });

  test("step 3 only when eliding and dropping reasoning cannot hold the threshold: whole oldest exchanges go behind a note of every dropped call and its outcome", () => {
    const h = history("TASK: fix the parser", 150, { output: "first line\n" + "x".repeat(8181) });
    h.splice(21, 0, { role: "user", text: "also update the docs" });
    h[4] = { role: "tool", results: [{ callId: "call_2", output: "exit 1: 3 tests failed\nmore", isError: true }] };
    // Even eliding every output but the newest leaves ~7k tokens of calls and stubs: over the threshold, so steps must go.
    const r = compactForWire(h, opts({ threshold: 4_000, window: 400_000 }));
    const input = wire(r);
    expect(input[0]).toMatchObject({ role: "user", content: [{ text: "TASK: fix the parser" }] });
    const notes = input.filter((i) => i.role === "user" && i.content[0].text.startsWith("[shiro: "));
    expect(notes.length).toBeGreaterThan(0);
    const noteText = notes.map((n) => n.content[0].text).join("\n");
    expect(noteText).toContain("- read_file src/f1.ts → ok (8,192 chars): first line");
    expect(noteText).toContain("- read_file src/f2.ts → error: exit 1: 3 tests failed");
    const callsOnWire = new Set(ofType(input, "function_call").map((i) => i.call_id));
    for (let n = 1; n <= 150; n++) if (!callsOnWire.has(`call_${n}`)) expect(noteText).toContain(`- read_file src/f${n}.ts → `);
    for (let n = 147; n <= 150; n++) expect(callsOnWire.has(`call_${n}`)).toBe(true); // the latest stay
    expect(callsOnWire.size).toBeLessThan(150);
    expect(input.some((i) => i.role === "user" && i.content[0].text === "also update the docs")).toBe(true);
    expect(r.tokens).toBeLessThanOrEqual(4_000 + 2_100); // the threshold, and the newest step (an 8k output)
    expect(r.needsSummary).toBeUndefined();
  });

  test("a threshold below what the instructions and tools alone take drops no step for it: it cannot be held", () => {
    const h = history("task", 150, { output: "x".repeat(8192) });
    const notes = (r: { input: readonly unknown[] }) => wire(r).filter((i) => i.role === "user" && i.content[0].text.startsWith("[shiro: ")).length;
    expect(notes(compactForWire(h, opts({ threshold: 4_000 })))).toBeGreaterThan(0);
    const r = compactForWire(h, opts({ threshold: 4_000, instructionsChars: 20_000 }));
    expect(notes(r)).toBe(0);
    expect(ofType(wire(r), "function_call")).toHaveLength(150);
    expect(fullOutputs(wire(r))).toBe(1); // every old output is still elided: that is lossless
  });

  test("outputs are elided before any whole step is dropped, and only as many as needed, in steps of half the threshold", () => {
    // 12 calls of ~2,050 tokens: 11 before the newest step, ~22.6k tokens, must come to 15k: ≥ 7.6k, so
    // 15k (two steps of 7.5k) are elided, 8 outputs, and 4 kept whole.
    const h = history("task", 12, { reasoning: true, output: "x".repeat(8192) });
    const r = compactForWire(h, opts({ threshold: 15_000, window: 20_000 }));
    const input = wire(r);
    expect(ofType(input, "function_call")).toHaveLength(12);
    expect(input.some((i) => i.role === "user" && i.content[0].text.startsWith("[shiro: "))).toBe(false);
    expect(fullOutputs(input)).toBe(4);
    expect(ofType(input, "reasoning")).toHaveLength(12);
    expect(r.tokens).toBeLessThanOrEqual(15_000);
    expect(r.needsSummary).toBeUndefined();
  });

  test("over the window even with the newest step kept whole, all but the newest two outputs go", () => {
    const h = [...history("task", 4, { output: "x".repeat(8192) }), ...(() => {
      const [a] = exchange(5);
      const calls = [5, 6, 7].map((n) => ({ type: "tool-call" as const, callId: `call_${n}`, name: "read_file", arguments: JSON.stringify({ path: `src/f${n}.ts` }) }));
      return [{ ...a, parts: calls }, { role: "tool" as const, results: calls.map((c) => ({ callId: c.callId, output: "y".repeat(30_000) })) }];
    })()];
    const r = compactForWire(h, opts({ threshold: 18_000, window: 20_000 }));
    const input = wire(r);
    expect(ofType(input, "function_call")).toHaveLength(7);
    expect(fullOutputs(input)).toBe(2);
    expect(r.tokens).toBeLessThanOrEqual(20_000);
  });

  test("when even dropping cannot fit, it asks for a summary and the input is still valid", () => {
    const h: Message[] = [{ role: "user", text: "t".repeat(200_000) }, ...exchange(1)];
    const r = compactForWire(h, opts({ threshold: 10_000, window: 20_000 }));
    expect(r.needsSummary).toBe(true);
    expect(wire(r)[0]).toMatchObject({ content: [{ text: "t".repeat(200_000) }] });
  });

  test("harder compacts even under the threshold, further than the normal ladder", () => {
    const h = history("task", 30, { reasoning: true, output: "x".repeat(8192) });
    expect(compactForWire(h, opts({ threshold: 90_000, window: 100_000 })).compaction).toBeUndefined();
    const r = compactForWire(h, opts({ threshold: 90_000, window: 100_000, harder: true }));
    const input = wire(r);
    expect(fullOutputs(input)).toBe(2); // only the newest two
    expect(ofType(input, "reasoning")).toHaveLength(1);
    expect(r.tokens).toBeLessThanOrEqual(60_000);
    expect(r.compaction).toBeDefined();
  });

  test("the real usage of the last response counts: a dense history compacts though chars/4 is small", () => {
    const h = history("task", 30, { output: "x".repeat(1000) });
    expect(compactForWire(h, opts({})).compaction).toBeUndefined();
    h[h.length - 2] = { ...(h[h.length - 2] as Extract<Message, { role: "assistant" }>), usage: { inputTokens: 150_000, cachedTokens: 0, outputTokens: 5, reasoningTokens: 0 } };
    const r = compactForWire(h, opts({}));
    expect(r.compaction!.tokensBefore).toBeGreaterThan(150_000);
  });

  test("only the part after the newest /compact marker counts and is compacted", () => {
    const h: Message[] = [...history("old task", 30), { role: "compaction", summary: "## Goal\nfix it" }, ...history("new task", 30)];
    const r = compactForWire(h, opts({ threshold: 1_000 }));
    expect(r.compaction?.messagesBefore).toBe(62);
    const input = wire(r);
    expect(input[0]!.content[0].text).toContain("## Goal\nfix it");
    expect(input[1]!.content[0].text).toBe("new task");
  });
});

describe("prompt-cache friendliness", () => {
  test("compacting H and then H plus one exchange: the first request is a prefix of the next, except where the cut steps", () => {
    let breaks = 0;
    for (let k = 20; k < 80; k++) {
      const a = JSON.stringify(wire(compactForWire(history("task", k), opts({ threshold: 10_000 })))).slice(0, -1);
      const b = JSON.stringify(wire(compactForWire(history("task", k + 1), opts({ threshold: 10_000 }))));
      if (!b.startsWith(a)) breaks++;
    }
    // 60 requests of ~1,650-token steps: the cut takes 5,000 tokens off at a time, about every third request.
    expect(breaks).toBeGreaterThanOrEqual(15);
    expect(breaks).toBeLessThanOrEqual(22);
  });

  test("with reasoning, only the previous latest response changes (its reasoning goes)", () => {
    const o = opts({ threshold: 2_000 });
    const a = wire(compactForWire(history("task", 40, { reasoning: true, output: "y".repeat(300) }), o));
    const b = wire(compactForWire(history("task", 41, { reasoning: true, output: "y".repeat(300) }), o));
    const n = a.length - 3; // reasoning, call, output of the newest exchange of a
    expect(JSON.stringify(b.slice(0, n))).toBe(JSON.stringify(a.slice(0, n)));
  });
});
