import { describe, expect, test } from "bun:test";
import { compactForWire } from "../../src/context/compact.ts";
import { elide, elisionCut, elisionStub } from "../../src/context/elide.ts";
import { serialiseInput } from "../../src/wire/serialise-input.ts";
import { checkInput } from "../support/check-input.ts";
import { exchange, history } from "../support/history-builders.ts";

type Item = Record<string, any>;
const wire = (messages: Parameters<typeof serialiseInput>[0]) => serialiseInput(messages, { model: "gpt-5" }) as Item[];
const outputs = (input: Item[]) => input.filter((i) => i.type === "function_call_output").map((i) => i.output as string);

describe("step 1: elide, don't delete", () => {
  test("old outputs become a one-line stub naming the tool and its subject; every call stays paired", () => {
    const h = history("fix the bug", 30, { output: "x".repeat(8192) });
    const r = compactForWire(h, { model: "gpt-5", threshold: 20_000, window: 400_000, harder: false, instructionsChars: 0 });
    const input = wire(r.messages);
    expect(checkInput({ model: "gpt-5", input })).toBeNull();
    expect(input.filter((i) => i.type === "function_call")).toHaveLength(30);
    const outs = outputs(input);
    expect(outs[0]).toBe("[output of read_file src/f1.ts elided: 8,192 chars — read it again if needed]");
    // 30 calls, at least 8 newest kept, cut in steps of 16: the oldest 16 are elided.
    expect(outs.filter((o) => o.startsWith("[output of"))).toHaveLength(16);
    expect(outs.slice(16).every((o) => o === "x".repeat(8192))).toBe(true);
    expect(r.compaction).toMatchObject({ messagesBefore: 61, messagesAfter: 61 - 16 }); // 16 tool messages shortened;
    expect(r.compaction!.tokensAfter).toBeLessThan(r.compaction!.tokensBefore);
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
    const out = elide(h, { keepRecent: 8, step: 16 });
    const input = wire(out);
    expect(input.find((i) => i.call_id === "call_1" && i.type === "function_call")!.arguments).toBe(
      '{"path":"src/w.ts","content":"[elided: 5,000 chars]"}',
    );
    expect(outputs(input).every((o) => o === "ok" || o === "wrote src/w.ts")).toBe(true);
    expect(h[1]).toMatchObject({ parts: [{ arguments: JSON.stringify({ path: "src/w.ts", content: "c".repeat(5000) }) }] });
  });

  test("the cut only moves in coarse steps, so consecutive requests share their prefix", () => {
    const opts = { keepRecent: 8, step: 16 };
    expect([8, 23, 24, 39, 40, 41].map((n) => elisionCut(n, opts))).toEqual([0, 0, 16, 16, 32, 32]);
  });

  test("the session's own history is untouched", () => {
    const h = history("t", 30);
    const before = JSON.stringify(h);
    compactForWire(h, { model: "gpt-5", threshold: 1_000, window: 400_000, harder: false, instructionsChars: 0 });
    expect(JSON.stringify(h)).toBe(before);
  });
});
