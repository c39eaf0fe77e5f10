import { describe, expect, test } from "bun:test";
import { compactForWire, type CompactOptions } from "../../../src/context/compact.ts";
import { elisionStub } from "../../../src/context/elide.ts";
import type { Message } from "../../../src/session/messages.ts";
import { checkInput } from "../../support/check-input.ts";
import { exchange, history } from "../../support/history-builders.ts";

type Item = Record<string, any>;
const opts = (o: Partial<CompactOptions>): CompactOptions => ({ model: "gpt-5", threshold: 120_000, window: 400_000, harder: false, instructionsChars: 0, ...o });
const compact = (h: readonly Message[], o: Partial<CompactOptions>) => {
  const r = compactForWire(h, opts(o));
  expect(checkInput({ model: "gpt-5", input: r.input })).toBeNull();
  return { ...r, input: r.input as Item[] };
};
const outputs = (input: Item[]) => input.filter((i) => i.type === "function_call_output").map((i) => i.output as string);
const stubbed = (input: Item[]) => outputs(input).filter((o) => o.startsWith("[output of")).length;
/** Tokens of the newest step of a request: its last response's call and output (one call each here). */
const stepTokens = (input: Item[]) => Math.ceil((JSON.stringify(input.at(-2)).length + JSON.stringify(input.at(-1)).length + 2) / 4);

describe("step 1: elide, don't delete", () => {
  test("old outputs become a one-line stub naming the tool and its subject, oldest first; every call stays paired", () => {
    const h = history("fix the bug", 30, { output: "x".repeat(8192) });
    const r = compact(h, { threshold: 20_000 });
    expect(r.input.filter((i) => i.type === "function_call")).toHaveLength(30);
    const outs = outputs(r.input);
    expect(outs[0]).toBe("[output of read_file src/f1.ts elided: 8,192 chars — read it again if needed]");
    // Everything before the newest step (29 × ~2,070 tokens) must come down to 20,000, in steps of half
    // of it: 50,000 tokens' worth, 25 outputs, the oldest.
    expect(stubbed(r.input)).toBe(25);
    expect(outs.slice(25).every((o) => o === "x".repeat(8192))).toBe(true);
    expect(r.tokens).toBeLessThanOrEqual(20_000);
    expect(r.compaction).toMatchObject({ messagesBefore: 61, messagesAfter: 61 - 25 }); // 25 tool messages shortened
    expect(r.compaction!.tokensAfter).toBeLessThan(r.compaction!.tokensBefore);
  });

  test("from the first calls on: the threshold holds as soon as it would be crossed, plus the newest step", () => {
    // A large output from the 3rd call on, a threshold a few of them cross: before, nothing could go until 24 calls existed.
    const h: Message[] = [{ role: "user", text: "task" }, ...exchange(1, { output: "ok" }), ...exchange(2, { output: "ok" })];
    for (let n = 3; n <= 30; n++) {
      h.push(...exchange(n, { output: "y".repeat(6_000) }));
      const r = compact(h, { threshold: 3_000 });
      expect(r.tokens).toBeLessThanOrEqual(3_000 + stepTokens(r.input));
      if (n >= 5) expect(stubbed(r.input)).toBeGreaterThan(0);
    }
  });

  test("stubs say how to get the output back for commands and searches, and mark errors", () => {
    expect(elisionStub({ name: "bash", arguments: '{"command":"npm test"}' }, "y".repeat(12_000), true)).toBe(
      "[error output of bash `npm test` elided: 12,000 chars — run it again if needed]",
    );
    expect(elisionStub({ name: "grep", arguments: '{"pattern":"TODO","path":"src"}' }, "z".repeat(500))).toBe(
      '[output of grep "TODO" elided: 500 chars — search again if needed]',
    );
    expect(elisionStub({ name: "todo", arguments: "not json" }, "z".repeat(500))).toBe("[output of todo elided: 500 chars — call it again if needed]");
  });

  test("short outputs are kept and a whole file given to an old write becomes a marker in valid JSON", () => {
    const h = history("t", 40, { output: "ok" });
    h.splice(1, 2, ...exchange(1, { name: "write_file", args: { path: "src/w.ts", content: "c".repeat(5000) }, output: "wrote src/w.ts" }));
    const r = compact(h, { threshold: 2_000 });
    expect(r.input.find((i) => i.call_id === "call_1" && i.type === "function_call")!.arguments).toBe('{"path":"src/w.ts","content":"[elided: 5,000 chars]"}');
    expect(outputs(r.input).every((o) => o === "ok" || o === "wrote src/w.ts")).toBe(true);
    expect(h[1]).toMatchObject({ parts: [{ arguments: JSON.stringify({ path: "src/w.ts", content: "c".repeat(5000) }) }] });
  });

  test("the cut only moves in coarse steps, never back, so consecutive requests share their prefix", () => {
    const h: Message[] = [{ role: "user", text: "task" }];
    const cuts: number[] = [];
    for (let n = 1; n <= 80; n++) {
      h.push(...exchange(n, { output: "z".repeat(4_000) }));
      cuts.push(stubbed(compact(h, { threshold: 10_000 }).input));
    }
    expect(cuts).toEqual([...cuts].sort((a, b) => a - b));
    // ~1,000 tokens an output: each move elides about half the threshold's worth, so about one request in five moves it.
    const moves = cuts.filter((c, i) => i > 0 && c !== cuts[i - 1]!);
    expect(moves.length).toBeGreaterThanOrEqual(12);
    expect(moves.length).toBeLessThanOrEqual(18);
    for (let i = 1; i < cuts.length; i++) if (cuts[i] !== cuts[i - 1]) expect(cuts[i]! - cuts[i - 1]!).toBeGreaterThanOrEqual(4);
  });

  test("the session's own history is untouched", () => {
    const h = history("t", 30);
    const before = JSON.stringify(h);
    compact(h, { threshold: 1_000 });
    expect(JSON.stringify(h)).toBe(before);
  });
});
