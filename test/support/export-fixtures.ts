/**
 * A session log with one of everything an export shows: file tools' calls (an edit, a file created, a
 * file replaced, a patch, one that failed), a denied command, an MCP image, a hook's words, a
 * compaction, an answer cut short, a call that never finished, a task list, ids and encrypted
 * reasoning (which an export leaves out). Its outputs hold what a renderer must keep as text.
 */
import type { AssistantMessage } from "../../src/session/messages.ts";
import { reduceSession, type SessionState } from "../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../src/session/session-event.ts";

export const AT = "2026-12-01T10:00:00.000Z";
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
/** What a tool printed that must never be markup: a script, a fence, a heading, a terminal's escape. */
export const HOSTILE_OUTPUT = 'ok </pre><script>alert("x")</script>\n```\n# not a heading\n\x1b]52;c;Y3VybA==\x07 done';

const usage = { inputTokens: 1000, cachedTokens: 400, outputTokens: 200, reasoningTokens: 50 };
const call = (callId: string, name: string, args: object) => ({ type: "tool-call" as const, itemId: `fc_${callId}`, callId, name, arguments: JSON.stringify(args) });
const answer = (parts: AssistantMessage["parts"], extra: Partial<AssistantMessage> = {}): AssistantMessage => ({ role: "assistant", model: "gpt-5", responseId: "resp_1", usage, parts, ...extra });
const reasoning = { type: "reasoning" as const, itemId: "rs_1", summary: ["**Plan**\n\nRead, then write."], encrypted: "gAAAsealed" };

export function sampleLog(): SessionEvent[] {
  let step = 0;
  const respond = (message: AssistantMessage, messages: number, status: "completed" | "incomplete" = "completed"): SessionEvent[] => [
    { type: "call", step: ++step, model: "gpt-5", params: {}, messages, prompt: "k", at: AT },
    { type: "response", step, status, message, at: AT },
  ];
  const result = (callId: string, output: string, more: { isError?: true; denied?: true; images?: { mediaType: string; data: string }[] } = {}): SessionEvent => ({ type: "result", callId, output, ...more });
  return [
    { type: "session", v: 2, id: "01a00000-0000-7000-8000-000000000001", at: AT, cwd: "/work/project", model: "gpt-5" },
    { type: "prompt", key: "k", instructions: "be brief", tools: [] },
    { type: "user", text: "Fix <b>the</b> bug\n## and say why", at: AT },
    ...respond(
      answer([
        reasoning,
        { type: "text", itemId: "msg_1", text: "Looking.", phase: "commentary" },
        call("c1", "edit_file", { path: "src/a.ts", old_string: "let x = 1;\n", new_string: "const x = 2;\n" }),
        call("c2", "write_file", { path: "src/new.ts", content: "export {};\n" }),
        call("c3", "write_file", { path: "src/old.ts", content: "replaced\n" }),
        call("c4", "apply_patch", { patch: "*** Begin Patch\n*** Update File: src/b.ts\n-a\n+b\n*** End Patch" }),
        call("c5", "edit_file", { path: "src/c.ts", old_string: "missing", new_string: "x" }),
        call("c6", "bash", { command: "rm -rf build" }),
        call("c7", "mcp__shots__screenshot", {}),
        call("c8", "bash", { command: "cat log.txt" }),
      ]),
      1,
    ),
    result("c1", "Edited src/a.ts: +1 −1 lines"),
    result("c2", "Created src/new.ts (1 line)"),
    result("c3", "Updated src/old.ts: +1 −3 lines"),
    result("c4", "Applied patch:\nM src/b.ts"),
    result("c5", "old_string not found in src/c.ts", { isError: true }),
    result("c6", "Denied: rm -rf is refused by a rule", { isError: true, denied: true }),
    result("c7", "[image 1: image/png, 70 B]", { images: [{ mediaType: "image/png", data: PNG }, { mediaType: "image/svg+xml", data: "PHN2Zz48L3N2Zz4=" }] }),
    result("c8", HOSTILE_OUTPUT),
    ...respond(answer([{ type: "text", text: "Fixed: `x` is now <const>." }]), 3),
    { type: "hook", event: "Stop", command: "check", source: "config.json", decision: "block", reason: "tests", feedback: "The tests still fail: go on.", ms: 5, at: AT },
    { type: "compaction", summary: "Earlier: x fixed.", at: AT },
    { type: "todos", todos: [{ content: "run the tests", status: "in_progress" }, { content: "ship <it>", status: "pending", note: "after review" }] },
    { type: "user", text: "and the docs?", at: "2026-12-01T10:05:00.000Z" },
    ...respond(answer([{ type: "text", text: "Half of the do" }], { incomplete: "max_output_tokens" }), 7, "incomplete"),
    ...respond(answer([call("c9", "read_file", { path: "docs/a.md" })]), 8),
  ];
}

export const sampleState = (): SessionState => reduceSession(sampleLog());

/** The calls the log says were denied, as `shiro export` collects them. */
export const deniedOf = (events: readonly SessionEvent[]): Set<string> => new Set(events.flatMap((e) => (e.type === "result" && e.denied ? [e.callId] : [])));
