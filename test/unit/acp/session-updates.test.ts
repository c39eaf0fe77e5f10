import { describe, expect, test } from "bun:test";
import { createUpdateMapper } from "../../../src/acp/session-updates.ts";
import { fileDiff } from "../../../src/tools/files/file-diff.ts";
import { emptyUsage } from "../../../src/session/messages.ts";
import type { Todo } from "../../../src/session/notebook.ts";

const ROOT = "/work/project";

describe("agent events as session/update (pure)", () => {
  test("text and reasoning stream as message and thought chunks; an empty delta says nothing", () => {
    const map = createUpdateMapper(ROOT, () => []);
    expect(map({ type: "text-delta", text: "Hel" })).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } }]);
    expect(map({ type: "reasoning-delta", text: "**Plan**" })).toEqual([{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "**Plan**" } }]);
    expect(map({ type: "text-delta", text: "" })).toEqual([]);
  });

  test("a call: tool_call with its kind, title and absolute locations, running once, then completed with the diff it made", () => {
    const map = createUpdateMapper(ROOT, () => []);
    const args = JSON.stringify({ path: "src/a.ts", old_string: "x", new_string: "y" });
    expect(map({ type: "tool-call", callId: "c1", name: "edit_file", arguments: args })).toEqual([
      { sessionUpdate: "tool_call", toolCallId: "c1", title: "edit_file src/a.ts", kind: "edit", status: "pending", locations: [{ path: "/work/project/src/a.ts" }], rawInput: JSON.parse(args) },
    ]);
    expect(map({ type: "tool-output", callId: "c1", chunk: "…" })).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" }]);
    expect(map({ type: "tool-output", callId: "c1", chunk: "…" })).toEqual([]);
    const display = fileDiff("src/a.ts", "let x = 1;\nx++;\n", "let y = 1;\nx++;\n");
    expect(map({ type: "tool-result", callId: "c1", name: "edit_file", output: "Edited src/a.ts: +1 −1 lines", isError: false, denied: false, display })).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed", content: [{ type: "diff", path: "/work/project/src/a.ts", oldText: "let x = 1;\nx++;", newText: "let y = 1;\nx++;" }] },
    ]);
  });

  test("each tool's kind; a denied call fails with its reason as content", () => {
    const map = createUpdateMapper(ROOT, () => []);
    const kinds = ["read_file", "list_dir", "grep", "glob", "bash", "todo_write", "write_file", "apply_patch", "task", "mcp__docs__search"].map(
      (name) => (map({ type: "tool-call", callId: name, name, arguments: "{}" })[0] as { kind: string }).kind,
    );
    expect(kinds).toEqual(["read", "read", "search", "search", "execute", "think", "edit", "edit", "other", "other"]);
    expect(map({ type: "tool-result", callId: "bash", name: "bash", output: "Denied: the user declined bash: rm x.", isError: true, denied: true })).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "bash", status: "failed", content: [{ type: "content", content: { type: "text", text: "Denied: the user declined bash: rm x." } }] },
    ]);
  });

  test("todo_write's result brings the task list as a plan; a blocked task stays pending with its note", () => {
    const todos: Todo[] = [
      { content: "read the code", status: "completed" },
      { content: "fix it", status: "in_progress" },
      { content: "ship", status: "blocked", note: "needs review" },
    ];
    const map = createUpdateMapper(ROOT, () => todos);
    map({ type: "tool-call", callId: "t", name: "todo_write", arguments: "{}" });
    expect(map({ type: "tool-result", callId: "t", name: "todo_write", output: "Task list saved", isError: false, denied: false })[1]).toEqual({
      sessionUpdate: "plan",
      entries: [
        { content: "read the code", priority: "medium", status: "completed" },
        { content: "fix it", priority: "medium", status: "in_progress" },
        { content: "ship (needs review)", priority: "medium", status: "pending" },
      ],
    });
  });

  test("what the driver says itself (notices, the end, a child's events) maps to nothing", () => {
    const map = createUpdateMapper(ROOT, () => []);
    expect(map({ type: "notice", level: "warn", text: "x" })).toEqual([]);
    expect(map({ type: "end", status: "done", steps: 1, usage: emptyUsage(), denials: 0 })).toEqual([]);
  });

  test("a task call's children show as its running content, line by line, until its result replaces it", () => {
    const map = createUpdateMapper(ROOT, () => []);
    const ids = { agentId: "a1", parentCallId: "t1" };
    map({ type: "tool-call", callId: "t1", name: "task", arguments: JSON.stringify({ description: "read alpha", prompt: "Read alpha.", agent: "general" }) });
    const running = (text: string) => [{ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress", content: [{ type: "content", content: { type: "text", text } }] }];
    expect(map({ type: "agent-start", ...ids, agent: "general", description: "read alpha" })).toEqual(running("⤷ general read alpha"));
    expect(map({ type: "child", ...ids, event: { type: "text-delta", text: "thinking aloud" } })).toEqual([]);
    expect(map({ type: "child", ...ids, event: { type: "tool-call", callId: "c9", name: "read_file", arguments: JSON.stringify({ path: "alpha.ts" }) } })).toEqual(running("⤷ general read alpha\n│ → read_file alpha.ts"));
    expect(map({ type: "tool-result", callId: "t1", name: "task", output: "alpha is fine", isError: false, denied: false })).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: "alpha is fine" } }] },
    ]);
  });
});
