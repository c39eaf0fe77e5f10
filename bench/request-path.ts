/**
 * A job's request path in process: the real request builder composing each request from a live
 * session's history (its ledger kept), then the step's answer and tool result logged, timed step by
 * step. No model, no HTTP: what shiro itself does per step besides sending.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createWireLedger } from "../src/context/wire-ledger.ts";
import type { Prompt } from "../src/agent/load-prompt.ts";
import { createRequestBuilder } from "../src/agent/request-builder.ts";
import { liveSession, sessionLine } from "../src/store/live-session.ts";
import { tempDir } from "../test/support/run-shiro.ts";

const at = "2026-12-01T10:00:00.000Z";
const schema = (name: string) => ({ type: "function" as const, name, description: "d".repeat(600), parameters: { type: "object", properties: {} }, strict: false });
const prompt: Prompt = { instructions: `You are shiro.\n${"Project rules. ".repeat(700)}`, files: [], tools: [], toolSchemas: Array.from({ length: 14 }, (_, i) => schema(`tool_${i}`)), skillSchema: schema("skill"), skills: [], currentSkills: async () => [] };

/** Milliseconds each step of a job took, grouped by the ranges that end at `ends` (1–16, 17–256, …). */
export async function requestPathPerStep(ends: number[]): Promise<{ from: number; to: number; ms: number[] }[]> {
  const dir = tempDir("bench-request-path");
  try {
    const id = Bun.randomUUIDv7();
    const live = liveSession({ path: join(dir, `${id}.jsonl`), first: sessionLine(id, "/p", "gpt-5", at) });
    const build = createRequestBuilder({ session: () => live, prompt: () => prompt, config: {}, summarise: async () => null, warn: () => {}, ledger: createWireLedger() })(new AbortController().signal);
    live.append({ type: "user", text: "Read the log, 40 lines at a time.", at });
    const ranges = ends.map((to, i) => ({ from: i ? ends[i - 1]! + 1 : 1, to, ms: [] as number[] }));
    for (let step = 1; step <= ends.at(-1)!; step++) {
      const callId = `call_${step}`;
      const start = performance.now();
      await build(live.state.messages, { harder: false });
      const message = { role: "assistant" as const, model: "gpt-5", usage: { inputTokens: 1_000, cachedTokens: 0, outputTokens: 20, reasoningTokens: 0 }, parts: [{ type: "tool-call" as const, callId, name: "read_file", arguments: JSON.stringify({ path: "log.txt", offset: step * 40 }) }] };
      live.append({ type: "response", step: live.state.callLog.calls.length, status: "completed", message, at });
      live.append({ type: "verdict", callId, allowed: true }, { type: "tool", callId });
      live.append({ type: "result", callId, output: `line ${step}: the quick brown fox jumps over the lazy dog\n`.repeat(40) });
      ranges.find((r) => step >= r.from && step <= r.to)!.ms.push(performance.now() - start);
    }
    live.close();
    return ranges;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
