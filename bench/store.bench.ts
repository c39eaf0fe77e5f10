import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snapshotKey } from "../src/store/call-log.ts";
import type { LiveSession } from "../src/store/live-session.ts";
import { createSessionStore, type SessionStore } from "../src/store/session-store.ts";
import { turn } from "../test/support/session-fixtures.ts";
import { median, medianMs } from "./median.ts";

const instructions = `You are shiro.\n${"Project rules and tool guidance. ".repeat(1500)}`; // ~48 KB, the size of a real prompt
const tools = Array.from({ length: 12 }, (_, i) => ({ type: "function", name: `tool_${i}`, description: "d".repeat(300), parameters: { type: "object" } }));
const key = snapshotKey(instructions, tools);
const at = "2026-12-01T10:00:00.000Z";

/** One turn as a run logs it: the prompt, a call, its answer, the tool's verdict, start and result, a call, the answer. */
function appendTurn(s: LiveSession, i: number) {
  const [user, call, result, answer] = turn(i) as [any, any, any, any];
  const ask = (message: unknown) => {
    const step = s.state.callLog.calls.length + 1;
    s.append({ type: "call", step, model: "gpt-5", params: { stream: true, store: false }, messages: s.state.messages.length, prompt: key, at });
    s.append({ type: "response", step, status: "completed", message: message as any, at });
  };
  s.append({ type: "user", text: user.text, at });
  ask(call);
  s.append({ type: "verdict", callId: result.results[0].callId, allowed: true }, { type: "tool", callId: result.results[0].callId });
  s.append({ type: "result", callId: result.results[0].callId, output: result.results[0].output });
  ask(answer);
}

async function sessionOf(store: SessionStore, turns: number, cwd = "/proj"): Promise<LiveSession> {
  const s = await store.create({ cwd, model: "gpt-5" });
  s.append({ type: "prompt", key, instructions, tools });
  for (let i = 0; i < turns; i++) appendTurn(s, i);
  await store.remember(s.state);
  return s;
}

/**
 * The session log's costs (issue 15): a turn's append must not grow with the history (bytes and time,
 * at 100 / 1,000 / 5,000 turns), resume reads and reduces the log, and -c with 1,000 sessions in
 * other folders reads only this folder's index.
 */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-store-"));
  try {
    const store = createSessionStore(join(root, "sessions"));
    const lines: string[] = [];
    for (const turns of [100, 1000, 5000]) {
      const s = await sessionOf(store, turns);
      const times: number[] = [];
      const before = s.written;
      for (let i = 0; i < 20; i++) {
        const start = performance.now();
        appendTurn(s, turns + i);
        times.push(performance.now() - start);
      }
      const perTurn = (s.written - before) / 20;
      s.close();
      const size = statSync(s.path).size;
      const open = await medianMs(5, async () => {
        const opened = await store.open(s.id, () => {});
        if (opened.ok) opened.session.close();
      });
      lines.push(`${turns}-turn session (${(size / 1e6).toFixed(1)} MB log): a turn appends ${Math.round(perTurn)} bytes in ${median(times).toFixed(2)} ms; open (read + reduce) ${open.toFixed(1)} ms`);
    }
    const here = await sessionOf(store, 5, "/here");
    here.close();
    const openNewest = async () => {
      const opened = await store.openNewest("/here", () => {});
      if (opened?.ok) opened.session.close();
    };
    const alone = await medianMs(15, openNewest);
    for (let i = 0; i < 1000; i++) (await sessionOf(store, 1, `/elsewhere/${i % 50}`)).close();
    const crowded = await medianMs(15, openNewest);
    lines.push(`-c (open the newest of this folder, 5 turns): ${alone.toFixed(2)} ms alone, ${crowded.toFixed(2)} ms with 1,000 sessions in 50 other folders`);
    return lines;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
