import { describe, expect, test } from "bun:test";
import { configurePrices, costUsd, priceOf } from "../../../src/pricing/cost.ts";
import { sessionTotals } from "../../../src/pricing/session-totals.ts";
import type { Message } from "../../../src/session/messages.ts";

const usage = { inputTokens: 1_000_000, cachedTokens: 400_000, outputTokens: 100_000, reasoningTokens: 60_000 };

describe("cost", () => {
  test("cached input is billed at the cached price and only once; reasoning is part of output", () => {
    // gpt-5: $1.25 in, $0.125 cached, $10 out per 1M
    expect(costUsd("gpt-5", usage)).toBeCloseTo(0.6 * 1.25 + 0.4 * 0.125 + 0.1 * 10, 10);
    expect(costUsd("gpt-4.1-mini", usage)).toBeCloseTo(0.6 * 0.4 + 0.4 * 0.1 + 0.1 * 1.6, 10);
  });

  test("a dated snapshot costs what its alias costs; an unknown model is unknown, not 0", () => {
    expect(priceOf("gpt-4.1-2025-04-14")).toEqual(priceOf("gpt-4.1")!);
    expect(costUsd("o3-2025-04-16", usage)).toBe(costUsd("o3", usage)!);
    expect(costUsd("llama-3-70b", usage)).toBeUndefined();
    expect(costUsd("gpt-5-turbo-imaginary", usage)).toBeUndefined();
    for (const m of ["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5.1", "gpt-5-codex", "gpt-4.1", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o3", "o4-mini", "o1"])
      expect(priceOf(m)).toBeDefined();
  });

  test("config.json's pricing prices a model shiro does not know and wins over a list price; cachedInput defaults to input", () => {
    try {
      configurePrices({ "llama-3-70b": { input: 0.5, output: 2 }, "gpt-5": { input: 2, cachedInput: 0.2, output: 20 } });
      expect(costUsd("llama-3-70b", usage)).toBeCloseTo(1 * 0.5 + 0.1 * 2, 10);
      expect(costUsd("gpt-5-2025-08-07", usage)).toBeCloseTo(0.6 * 2 + 0.4 * 0.2 + 0.1 * 20, 10);
      expect(sessionTotals([{ role: "assistant", model: "llama-3-70b", usage, parts: [] }]).costUsd).toBeCloseTo(0.7, 10);
    } finally {
      configurePrices({});
    }
    expect(costUsd("llama-3-70b", usage)).toBeUndefined();
  });

  test("session totals price each response by its own model; one unpriced model makes the total unknown", () => {
    const u = { inputTokens: 1000, cachedTokens: 0, outputTokens: 100, reasoningTokens: 0 };
    const messages: Message[] = [
      { role: "user", text: "x" },
      { role: "assistant", model: "gpt-5", usage: u, parts: [] },
      { role: "assistant", model: "gpt-5-mini", usage: u, parts: [] },
      { role: "assistant", model: "gpt-5", parts: [] }, // aborted: no usage
    ];
    const totals = sessionTotals(messages);
    expect(totals.usage).toEqual({ inputTokens: 2000, cachedTokens: 0, outputTokens: 200, reasoningTokens: 0 });
    expect(totals.costUsd).toBeCloseTo(costUsd("gpt-5", u)! + costUsd("gpt-5-mini", u)!, 12);
    const withLocal = sessionTotals([...messages, { role: "assistant", model: "local-qwen", usage: u, parts: [] }]);
    expect(withLocal.costUsd).toBeUndefined();
    expect(withLocal.unpricedModels).toEqual(["local-qwen"]);
  });
});
