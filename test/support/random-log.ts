/**
 * Random session logs that could have happened: every kind of event, in an order the reducer
 * accepts (it is asked, event by event) — prompts, calls and their answers of every status, tool
 * calls judged, run, interrupted or denied, hooks, task lists, model switches, learned windows, MCP
 * servers, summaries and undos. For properties of what reading a log gives.
 */
import type { AssistantMessage } from "../../src/session/messages.ts";
import { createSessionReducer } from "../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../src/session/session-event.ts";
import type { Rng } from "./random-history.ts";

export function randomLog(rng: Rng, turns: number, id = "01a23590-d8bd-7554-a63c-bd192f91f8de"): SessionEvent[] {
  const events: SessionEvent[] = [];
  const reducer = createSessionReducer();
  const add = (e: SessionEvent) => {
    reducer.apply(e);
    events.push(e);
  };
  let clock = Date.parse("2026-12-01T10:00:00.000Z");
  const at = () => new Date((clock += rng.int(1, 90_000))).toISOString();
  const state = () => reducer.state!;
  const text = (n: number) => Array.from({ length: rng.int(1, n) }, () => rng.pick(["fix", "the", "test", "é", "→", '"q"', "\\", "line\n", "x".repeat(40)])).join(" ");
  let calls = 0;
  add({ type: "session", v: 2, id, at: at(), cwd: "/home/dev/project", model: "gpt-5" });
  add({ type: "prompt", key: "p1", instructions: `You are shiro. ${text(20)}`, tools: [{ type: "function", name: "read_file" }] });
  for (let t = 0; t < turns; t++) {
    add({ type: "user", text: text(12), at: at() });
    if (rng.chance(0.2)) add({ type: "hook", event: "UserPromptSubmit", command: "./check.sh", source: "config.json", decision: "continue", ms: rng.int(1, 80), ...(rng.chance(0.5) ? { feedback: text(5) } : {}), at: at() });
    if (rng.chance(0.15)) add({ type: "todos", todos: [{ content: text(4).trim() || "task", status: rng.pick(["pending", "in_progress", "completed"]) }] });
    if (rng.chance(0.1)) add({ type: "model", model: rng.pick(["gpt-5", "o3", "gpt-5-mini"]) });
    if (rng.chance(0.05)) add({ type: "window", model: state().model, tokens: rng.int(8_000, 400_000) });
    if (rng.chance(0.05)) add({ type: "mcp", server: rng.pick(["gh", "db"]), status: rng.pick(["connected", "failed", "closed"]), ...(rng.chance(0.5) ? { tools: rng.int(0, 9), toolsHash: "h" } : { error: text(3) }), at: at() });
    if (rng.chance(0.05)) add({ type: "prompt", key: `p${t}`, instructions: text(8), tools: [] });
    const prompts = Object.keys(state().callLog.snapshots);
    for (let step = rng.int(1, 3); step > 0; step--) {
      calls++;
      add({ type: "call", step: calls, model: state().model, params: { stream: true, store: false }, messages: state().messages.length, prompt: rng.pick(prompts), ...(rng.chance(0.3) ? { limits: { threshold: 200_000, window: 400_000 } } : {}), ...(rng.chance(0.05) ? { harder: true as const } : {}), at: at() });
      const status = rng.chance(0.85) ? "completed" : rng.pick(["incomplete", "aborted", "error"] as const);
      const callIds = Array.from({ length: rng.chance(0.6) ? rng.int(1, 3) : 0 }, (_, k) => `call_${calls}_${k}`);
      const usage = rng.chance(0.9) ? { inputTokens: rng.int(1_000, 90_000), cachedTokens: rng.int(0, 900), outputTokens: rng.int(1, 4_000), reasoningTokens: rng.int(0, 900) } : undefined;
      const message: AssistantMessage = {
        role: "assistant",
        model: state().model,
        ...(usage ? { usage } : {}),
        ...(rng.chance(0.5) ? { responseId: `resp_${calls}` } : {}),
        parts: [
          ...(rng.chance(0.6) ? [{ type: "reasoning" as const, itemId: `rs_${calls}`, summary: [text(4)], ...(rng.chance(0.7) ? { encrypted: "gAAA".repeat(rng.int(1, 50)) } : {}) }] : []),
          ...(rng.chance(0.7) ? [{ type: "text" as const, text: text(30) }] : []),
          ...callIds.map((callId) => ({ type: "tool-call" as const, itemId: `fc_${callId}`, callId, name: rng.pick(["read_file", "bash", "write_file"]), arguments: JSON.stringify({ path: `src/${text(1)}.ts` }) })),
        ],
      };
      const answered = status === "error" ? rng.chance(0.5) : true;
      add({ type: "response", step: calls, status, ...(answered ? { message } : {}), ...(status === "error" ? { error: text(4) } : {}), at: at() });
      if (status !== "completed" || callIds.length === 0) break;
      for (const callId of callIds) {
        const allowed = rng.chance(0.85);
        add({ type: "verdict", callId, allowed, ...(rng.chance(0.3) ? { sandbox: "workspace-write" as const } : {}) });
        if (rng.chance(0.1)) add({ type: "hook", event: "PreToolUse", command: "./guard.sh", source: ".shiro/settings.json", callId, decision: rng.pick(["continue", "allow", "ask", "block"]), ms: 3, at: at() });
        if (!allowed) {
          add({ type: "result", callId, output: `denied: ${text(3)}`, isError: true, denied: true });
          continue;
        }
        add({ type: "tool", callId });
        // Now and then shiro was stopped mid-tool: no result, ever.
        if (rng.chance(0.05)) continue;
        add({ type: "result", callId, output: text(60), ...(rng.chance(0.2) ? { isError: true as const } : {}), ...(rng.chance(0.05) ? { images: [{ mediaType: "image/png", data: "iVBORw0KGgo=" }] } : {}) });
      }
    }
    if (rng.chance(0.05)) add({ type: "compaction", summary: text(20), at: at() });
    const live = state().turns;
    if (live.length > 1 && rng.chance(0.07)) add({ type: "undo", turn: rng.pick(live.slice(1)).turn, at: at() });
  }
  return events;
}

/** A log's text: one event per line. */
export const logText = (events: readonly SessionEvent[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join("");
