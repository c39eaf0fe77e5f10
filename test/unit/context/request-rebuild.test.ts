/**
 * Property: what the request builder sent is what `shiro inspect` rebuilds from the log, byte for
 * byte, over random sessions — with compaction at random thresholds, a task list, overflows retried
 * harder (a window learned), summaries, model switches and calls left unanswered. The running session
 * reuses what it measured for the previous request; the rebuild measures afresh.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createWireLedger } from "../../../src/context/wire-ledger.ts";
import { rebuildBody } from "../../../src/context/rebuild-body.ts";
import { createRequestBuilder } from "../../../src/agent/request-builder.ts";
import type { Prompt } from "../../../src/agent/load-prompt.ts";
import type { Message } from "../../../src/session/messages.ts";
import { callsOf } from "../../../src/store/call-log.ts";
import { factEvents } from "../../../src/session/fact-event.ts";
import { userEvents } from "../../../src/session/user-events.ts";
import { reduceSession } from "../../../src/session/reduce-session.ts";
import { parseLog } from "../../../src/session/session-log.ts";
import { liveSession, sessionLine, type LiveSession } from "../../../src/store/live-session.ts";
import { prng, randomHistory, type Rng } from "../../support/random-history.ts";
import { tempDir } from "../../support/run-shiro.ts";

const SESSIONS = 250;
const dir = tempDir("rebuild-property");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = "2026-12-01T10:00:00.000Z";

const promptOf = (rng: Rng): Prompt => {
  const schema = (name: string) => ({ type: "function" as const, name, description: `the ${name} tool`, parameters: { type: "object", properties: {} }, strict: false });
  return { instructions: `You are shiro.\n${"rules ".repeat(rng.int(10, 3_000))}`, files: [], tools: [], toolSchemas: [schema("read_file"), schema("bash")], skillSchema: schema("skill"), skills: [], currentSkills: async () => [] };
};

/** Replays a random history as a run logs it, building every request through the real builder; returns the bodies sent. */
async function run(live: LiveSession, history: readonly Message[], rng: Rng): Promise<{ sent: string[]; stats: { compacted: number; harder: number; summaries: number } }> {
  const stats = { compacted: 0, harder: 0, summaries: 0 };
  const config = { compactAt: rng.int(300, 60_000), ...(rng.chance(0.5) ? { contextWindow: rng.int(3_000, 200_000) } : {}) };
  const build = createRequestBuilder({
    session: () => live,
    prompt: () => prompt,
    config,
    summarise: async () => (rng.chance(0.5) ? (stats.summaries++, { role: "compaction", summary: `## Goal\nsummary ${rng.int(0, 1e6)}` }) : null),
    warn: () => {},
    ledger: createWireLedger(),
  })(new AbortController().signal);
  const prompt = promptOf(rng);
  const sent: string[] = [];
  const send = async (harder: boolean) => {
    const composed = await build(live.state.messages, { harder });
    if (composed.compaction) stats.compacted++;
    sent.push(JSON.stringify(composed.body));
  };
  for (const m of history) {
    if (m.role === "user") live.append(...userEvents(m.text, m.images ?? [], live.state, at));
    else if (m.role === "compaction") live.append({ type: "compaction", summary: m.summary, at });
    else if (m.role === "tool")
      for (const r of m.results) live.append(...factEvents({ type: "result", callId: r.callId, output: r.output, isError: r.isError === true, denied: false, ...(r.images ? { images: r.images } : {}) }, live.state, at));
    else {
      if (rng.chance(0.2)) live.append({ type: "todos", todos: [{ content: `task ${rng.int(0, 99)}`, status: rng.pick(["pending", "in_progress", "completed"] as const) }] });
      if (m.model !== live.state.model && rng.chance(0.7)) live.append({ type: "model", model: m.model });
      await send(false);
      if (rng.chance(0.1)) {
        // The API said the request was too large: the loop retries once, harder.
        live.append({ type: "response", step: live.state.callLog.calls.length, status: "error", error: "context_length_exceeded", at });
        stats.harder++;
        await send(true);
      }
      live.append({ type: "response", step: live.state.callLog.calls.length, status: "completed", message: m, at });
    }
  }
  return { sent, stats };
}

/** Replays `sessions` random histories and rebuilds each call from the log as read back from disk; returns the totals and what differed. */
async function rebuildAll(sessions: number, images: boolean) {
  const totals = { calls: 0, compacted: 0, harder: 0, summaries: 0, images: 0 };
  const failures: string[] = [];
  for (let seed = 1; seed <= sessions && failures.length < 3; seed++) {
    const rng = prng(seed);
    const id = `00000000-0000-7000-8000-${images ? "1" : "0"}${String(seed).padStart(11, "0")}`;
    const path = join(dir, `${id}.jsonl`);
    const live = liveSession({ path, first: sessionLine(id, "/p", rng.pick(["gpt-5", "o3"]), at) });
    const { sent, stats } = await run(live, randomHistory(rng, rng.int(1, 60), { images }), rng);
    live.close();
    const calls = callsOf(reduceSession(parseLog(readFileSync(path, "utf8")).events));
    expect(calls).toHaveLength(sent.length);
    const shared = createWireLedger(); // as `shiro inspect` rebuilds: every call of the session in order
    calls.forEach((call, i) => {
      const alone = JSON.stringify(rebuildBody(call));
      const inOrder = JSON.stringify(rebuildBody(call, shared));
      if (alone !== sent[i] || inOrder !== sent[i]) failures.push(`seed ${seed}, call ${i + 1}: ${alone === sent[i] ? "the in-order" : "the fresh"} rebuild differs from what was sent`);
    });
    totals.calls += sent.length;
    totals.images += sent.filter((body) => body.includes('"input_image"')).length;
    for (const k of ["compacted", "harder", "summaries"] as const) totals[k] += stats[k];
  }
  return { totals, failures };
}

test(`every request of ${SESSIONS} random sessions is rebuilt from the log byte for byte`, async () => {
  const { totals, failures } = await rebuildAll(SESSIONS, false);
  expect(failures).toEqual([]);
  // The sessions really reach every path.
  expect(totals.compacted).toBeGreaterThan(totals.calls / 4);
  expect(totals.harder).toBeGreaterThan(50);
  expect(totals.summaries).toBeGreaterThan(10);
}, 60_000);

test("so is every request of sessions whose prompts and results carry images, each stored once and named by hash", async () => {
  const { totals, failures } = await rebuildAll(SESSIONS / 5, true);
  expect(failures).toEqual([]);
  expect(totals.images).toBeGreaterThan(totals.calls / 4);
  expect(totals.compacted).toBeGreaterThan(0);
}, 60_000);
