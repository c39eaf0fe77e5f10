import type { LiveSession } from "../../src/store/live-session.ts";
import type { Message } from "../../src/session/messages.ts";

/** One of every message kind and part kind, with every optional field set somewhere. */
export const everyKind = (): Message[] => [
  { role: "user", text: "fix the failing test in src/app.ts — and explain\nwhy it failed, in detail please, with examples" },
  {
    role: "assistant",
    model: "gpt-5",
    responseId: "resp_1",
    usage: { inputTokens: 1200, cachedTokens: 1000, outputTokens: 300, reasoningTokens: 120 },
    parts: [
      { type: "reasoning", itemId: "rs_1", summary: ["look at the test", "then the code"], encrypted: "gAAAA-enc" },
      { type: "text", itemId: "msg_1", text: "Reading the files." },
      { type: "tool-call", itemId: "fc_1", callId: "call_1", name: "read_file", arguments: '{"path":"src/app.ts"}' },
      { type: "tool-call", callId: "call_2", name: "bash", arguments: '{"command":"bun test"}' },
    ],
  },
  { role: "tool", results: [{ callId: "call_1", output: "export {}" }, { callId: "call_2", output: "1 fail", isError: true }] },
  { role: "assistant", model: "gpt-5", parts: [{ type: "reasoning", summary: [] }, { type: "text", text: "Partly" }], incomplete: "aborted" },
  { role: "compaction", summary: "The user asked to fix a test; the test fails on a missing export." },
  { role: "user", text: "go on" },
];

/** A realistic turn: a prompt, a call with encrypted reasoning, its result, and an answer. */
export function turn(i: number): Message[] {
  const usage = { inputTokens: 20_000 + i * 10, cachedTokens: 18_000, outputTokens: 400, reasoningTokens: 200 };
  return [
    { role: "user", text: `step ${i}: please update the handler in src/routes/item-${i}.ts so it validates its input` },
    {
      role: "assistant",
      model: "gpt-5",
      responseId: `resp_${i}a`,
      usage,
      parts: [
        { type: "reasoning", itemId: `rs_${i}`, summary: ["Need to read the file first."], encrypted: "x".repeat(1200) },
        { type: "tool-call", itemId: `fc_${i}`, callId: `call_${i}`, name: "read_file", arguments: `{"path":"src/routes/item-${i}.ts"}` },
      ],
    },
    { role: "tool", results: [{ callId: `call_${i}`, output: `// item ${i}\n${"export const handler = (req) => req.body;\n".repeat(20)}` }] },
    { role: "assistant", model: "gpt-5", responseId: `resp_${i}b`, usage, parts: [{ type: "text", itemId: `msg_${i}`, text: "Done: the handler now checks its body with a schema.".repeat(3) }] },
  ];
}

/**
 * Appends `messages` to a live session as the events a run would have logged: each answer gets a
 * call (from a fixture prompt) right before it, each tool message its results. For tests that need a
 * session holding a given history.
 */
export function appendMessages(session: LiveSession, messages: readonly Message[], at = new Date().toISOString()): void {
  const { state } = session;
  if (!Object.hasOwn(state.callLog.snapshots, FIXTURE_PROMPT)) session.append({ type: "prompt", key: FIXTURE_PROMPT, instructions: "fixture", tools: [] });
  for (const m of messages) {
    if (m.role === "user") session.append({ type: "user", text: m.text, at });
    else if (m.role === "compaction") session.append({ type: "compaction", summary: m.summary, at });
    else if (m.role === "tool") session.append(...m.results.map((r) => ({ type: "result" as const, callId: r.callId, output: r.output, ...(r.isError ? { isError: true as const } : {}) })));
    else {
      const step = state.callLog.calls.length + 1;
      session.append(
        { type: "call", step, model: m.model, params: {}, messages: state.messages.length, prompt: FIXTURE_PROMPT, at },
        { type: "response", step, status: m.incomplete === "aborted" ? "aborted" : m.incomplete ? "incomplete" : "completed", message: m, at },
      );
    }
  }
}

const FIXTURE_PROMPT = "fixture-prompt";
