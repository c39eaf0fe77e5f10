import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordCall, recordResponse } from "../src/store/call-log.ts";
import { createSessionStore } from "../src/store/session-store.ts";
import { turn } from "../test/support/session-fixtures.ts";
import { medianMs } from "./median.ts";

const TURNS = 1000;
const SESSIONS = 500;
const instructions = `You are shiro.\n${"Project rules and tool guidance. ".repeat(1500)}`; // ~48 KB, the size of a real prompt
const tools = Array.from({ length: 12 }, (_, i) => ({ type: "function", name: `tool_${i}`, description: "d".repeat(300), parameters: { type: "object" } }));

/** Session save and listing, against the figures in issue 5 (save < 50 ms, 500-session list < 100 ms). */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-store-"));
  try {
    const store = createSessionStore(join(root, "sessions"));
    const big = store.create({ cwd: "/proj", model: "gpt-5" });
    for (let i = 0; i < TURNS; i++) {
      for (const m of turn(i)) {
        if (m.role === "assistant") {
          recordCall(big, { model: "gpt-5", instructions, tools, params: { stream: true, store: false }, messageCount: big.messages.length });
          recordResponse(big, { status: "completed", responseId: m.responseId, usage: m.usage });
        }
        big.messages.push(m);
      }
    }
    const save = await medianMs(15, () => store.save(big));
    const bytes = statSync(join(store.dir, `${big.id}.json`)).size;

    for (let i = 1; i < SESSIONS; i++) {
      const s = store.create({ cwd: `/proj/${i % 7}`, model: "gpt-5" });
      for (let t = 0; t < 20; t++) s.messages.push(...turn(t));
      await store.save(s);
    }
    let listed = 0;
    const list = await medianMs(15, async () => (listed = (await store.list()).sessions.length));
    return [
      `save ${TURNS}-turn session (${(bytes / 1e6).toFixed(1)} MB, ${big.callLog.calls.length} calls): median ${save.toFixed(1)} ms`,
      `session file size: ${Math.round(bytes / TURNS)} bytes per turn (prompt of ${(instructions.length / 1000).toFixed(0)} KB stored once)`,
      `list ${listed} sessions: median ${list.toFixed(1)} ms`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

