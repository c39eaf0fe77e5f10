/**
 * A saved session of many turns, as a run would have logged it, that the strict server accepts on
 * resume (its reasoning is sealed for the model): for the resume benchmark and its test.
 */
import { join } from "node:path";
import { snapshotKey } from "../../src/store/call-log.ts";
import { createSessionStore } from "../../src/store/session-store.ts";
import { sealReasoning } from "./check-input.ts";

const instructions = `You are shiro.\n${"Project rules and tool guidance. ".repeat(1500)}`; // ~48 KB, a real prompt's size
const tools = Array.from({ length: 12 }, (_, i) => ({ type: "function", name: `tool_${i}`, description: "d".repeat(300), parameters: { type: "object" } }));
const at = "2026-12-01T10:00:00.000Z";

/** Writes a session of `turns` turns (a prompt, a read with reasoning, its result, an answer) for `cwd` under `home`; returns its id. */
export async function writeLongSession(home: string, cwd: string, turns: number, model = "gpt-5"): Promise<string> {
  const store = createSessionStore(join(home, "sessions"));
  const s = await store.create({ cwd, model });
  const key = snapshotKey(instructions, tools);
  s.append({ type: "prompt", key, instructions, tools });
  const ask = (message: any) => {
    const step = s.state.callLog.calls.length + 1;
    s.append({ type: "call", step, model, params: { stream: true, store: false }, messages: s.state.messages.length, prompt: key, at });
    s.append({ type: "response", step, status: "completed", message, at });
  };
  for (let i = 0; i < turns; i++) {
    const usage = { inputTokens: 20_000 + i * 10, cachedTokens: 18_000, outputTokens: 400, reasoningTokens: 200 };
    const callId = `call_${i}`;
    s.append({ type: "user", text: `step ${i}: please update the handler in src/routes/item-${i}.ts so it validates its input`, at });
    ask({
      role: "assistant",
      model,
      usage,
      parts: [
        { type: "reasoning", itemId: `rs_${i}`, summary: ["Need to read the file first."], encrypted: sealReasoning(`rs_${i}`, model) },
        { type: "tool-call", itemId: `fc_${i}`, callId, name: "read_file", arguments: `{"path":"src/routes/item-${i}.ts"}` },
      ],
    });
    s.append({ type: "verdict", callId, allowed: true }, { type: "tool", callId });
    s.append({ type: "result", callId, output: `// item ${i}\n${"export const handler = (req) => req.body;\n".repeat(20)}` });
    ask({ role: "assistant", model, usage, parts: [{ type: "text", text: "Done: the handler now checks its body with a schema.".repeat(3) }] });
  }
  await store.remember(s.state);
  s.close();
  return s.id;
}
