import type { AgentEvent } from "../loop/events.ts";
import type { Todo } from "../session/notebook.ts";
import type { PlanEntry, SessionUpdate, ToolCallContent } from "./acp-types.ts";
import { callView, toolCallKind } from "./tool-call-kind.ts";
import { acpDiffs } from "./unified-diff.ts";
import pc from "picocolors";
import { createChildLines } from "../ui/child-lines.ts";

const text = (sessionUpdate: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk", chunk: string): SessionUpdate => ({ sessionUpdate, content: { type: "text", text: chunk } });

/** A call as it begins (or, replayed, as it ended): its title, kind, the files it touches, its arguments. */
export function toolCallStart(callId: string, name: string, argumentsJson: string, root: string): Extract<SessionUpdate, { sessionUpdate: "tool_call" }> {
  const { title, locations, rawInput } = callView(name, argumentsJson, root);
  return { sessionUpdate: "tool_call", toolCallId: callId, title, kind: toolCallKind(name), status: "pending", locations, rawInput };
}

/** What a call's result shows: the diff a file tool made, or its output. */
export function resultContent(output: string, display: string | undefined, root: string): ToolCallContent[] {
  const diffs = display === undefined ? [] : acpDiffs(display, root);
  return diffs.length ? diffs : [{ type: "content", content: { type: "text", text: output } }];
}

/** A task list as an editor's plan: a blocked task stays pending, its note said. */
export const planOf = (todos: readonly Todo[]): SessionUpdate => ({
  sessionUpdate: "plan",
  entries: todos.map(
    (todo): PlanEntry => ({
      content: todo.note ? `${todo.content} (${todo.note})` : todo.content,
      priority: "medium",
      status: todo.status === "blocked" ? "pending" : todo.status,
    }),
  ),
});

/**
 * A turn's events as `session/update`s: text and reasoning as chunks, each call as `tool_call` then
 * `tool_call_update`s (running, then done or failed, with its diff), `todo_write` as a `plan`. It
 * remembers each call's name and arguments until its result; it does no I/O. What the child agents
 * of a `task` call do shows as that call's running content (their lines, as a terminal shows them)
 * until its result replaces it; notices and the end are the driver's to say.
 */
export function createUpdateMapper(root: string, todos: () => readonly Todo[]): (event: AgentEvent) => SessionUpdate[] {
  const calls = new Map<string, { name: string; running: boolean }>();
  const childLines = createChildLines(pc.createColors(false));
  const progress = new Map<string, string[]>();
  return (event) => {
    switch (event.type) {
      case "text-delta":
        return event.text ? [text("agent_message_chunk", event.text)] : [];
      case "reasoning-delta":
        return event.text ? [text("agent_thought_chunk", event.text)] : [];
      case "tool-call":
        calls.set(event.callId, { name: event.name, running: false });
        return [toolCallStart(event.callId, event.name, event.arguments, root)];
      case "tool-output": {
        const call = calls.get(event.callId);
        if (!call || call.running) return [];
        call.running = true;
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.callId, status: "in_progress" }];
      }
      case "agent-start":
      case "agent-end":
      case "child": {
        const lines = childLines(event);
        if (!lines.length) return [];
        const shown = [...(progress.get(event.parentCallId) ?? []), ...lines.map((line) => line.slice(2))];
        progress.set(event.parentCallId, shown);
        return [{ sessionUpdate: "tool_call_update", toolCallId: event.parentCallId, status: "in_progress", content: [{ type: "content", content: { type: "text", text: shown.join("\n") } }] }];
      }
      case "tool-result": {
        calls.delete(event.callId);
        progress.delete(event.callId);
        const done: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: event.callId, status: event.isError ? "failed" : "completed", content: resultContent(event.output, event.display, root) };
        return event.name === "todo_write" && !event.isError ? [done, planOf(todos())] : [done];
      }
      default:
        return [];
    }
  };
}
