import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/session/messages.ts";
import { estimateNextRequest } from "../../../src/context/estimate.ts";
import { createWireLedger } from "../../../src/context/wire-ledger.ts";
import { DEFAULT_COMPACT_AT, FALLBACK_WINDOW, learnWindow, thresholdInForce, windowFor } from "../../../src/context/windows.ts";
import { contextMeter } from "../../../src/context/context-meter.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { history } from "../../support/history-builders.ts";

const measured = (h: readonly Message[]) => createWireLedger().sync(h, "gpt-5");
const estimate = (h: readonly Message[], instructionsChars: number) => estimateNextRequest(measured(h), instructionsChars);

describe("measuring", () => {
  test("without usage the estimate is chars/4 of the whole payload, measured as the JSON the API gets", () => {
    const h = history("task", 20, { reasoning: true });
    const ledger = measured(h);
    const real = JSON.stringify(serialiseInput(h, { model: "gpt-5" })).length;
    expect(ledger.charsBefore(ledger.entries.length) + 1).toBe(real); // each item and its comma, and the brackets
    expect(estimate(h, 4_000)).toBe(Math.ceil((real - 1 + 4_000) / 4));
  });

  test("with usage it is the last real input_tokens plus chars/4 of what came since", () => {
    const h: Message[] = [
      { role: "user", text: "task" },
      { role: "assistant", model: "gpt-5", parts: [{ type: "text", text: "hi" }], usage: { inputTokens: 50_000, cachedTokens: 0, outputTokens: 1, reasoningTokens: 0 } },
      { role: "user", text: "x".repeat(4_000) },
    ];
    const est = estimate(h, 0);
    expect(est).toBeGreaterThan(51_000);
    expect(est).toBeLessThan(51_100);
  });

  test("usage from before the newest /compact marker is ignored", () => {
    const h: Message[] = [
      { role: "user", text: "task" },
      { role: "assistant", model: "gpt-5", parts: [{ type: "text", text: "hi" }], usage: { inputTokens: 300_000, cachedTokens: 0, outputTokens: 1, reasoningTokens: 0 } },
      { role: "compaction", summary: "## Goal\nsomething" },
      { role: "user", text: "next" },
    ];
    expect(estimate(h, 0)).toBeLessThan(200);
  });
});

describe("limits", () => {
  test("windows of known models, the config for others, and a learned window wins when smaller", () => {
    expect(windowFor("gpt-5")).toBe(400_000);
    expect(windowFor("gpt-5-mini-2025-08-07")).toBe(400_000);
    expect(windowFor("gpt-4.1-mini")).toBe(1_047_576);
    expect(windowFor("o4-mini")).toBe(200_000);
    expect(windowFor("gpt-4o")).toBe(128_000);
    expect(windowFor("my-local-model")).toBe(FALLBACK_WINDOW);
    expect(windowFor("my-local-model", { configured: 32_000 })).toBe(32_000);
    expect(windowFor("gpt-5", { learned: 272_000 })).toBe(272_000);
  });

  test("the threshold is compactAt or 120,000, never above 90% of the window", () => {
    expect(thresholdInForce({ window: 400_000 })).toBe(DEFAULT_COMPACT_AT);
    expect(thresholdInForce({ compactAt: 50_000, window: 400_000 })).toBe(50_000);
    expect(thresholdInForce({ compactAt: 500_000, window: 400_000 })).toBe(360_000);
    expect(thresholdInForce({ window: 32_000 })).toBe(28_800);
  });

  test("an overflow teaches that the window is smaller than what was sent", () => {
    expect(learnWindow(400_000, 300_000)).toBe(299_999);
    expect(learnWindow(200_000, 300_000)).toBe(200_000);
    expect(learnWindow(400_000, 10)).toBe(8_000);
  });

  test("the meter: normal, amber from two thirds, red from 90%", () => {
    expect(contextMeter(60_000, 120_000)).toEqual({ percent: 50, level: "normal" });
    expect(contextMeter(80_000, 120_000)).toEqual({ percent: 67, level: "amber" });
    expect(contextMeter(108_000, 120_000)).toEqual({ percent: 90, level: "red" });
    expect(contextMeter(200_000, 120_000).level).toBe("red");
  });
});
