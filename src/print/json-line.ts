import type { AgentEvent } from "../loop/events.ts";
import type { Usage } from "../session/messages.ts";
import type { StopSignal } from "../exit/stop-signals.ts";
import type { EventOf } from "../session/session-event.ts";

/** The `--json` schema (docs/print-mode.md): one object per line, each with a `type`. */
export function jsonLine(event: AgentEvent): object | undefined {
  switch (event.type) {
    case "text-delta":
      return { type: "text", delta: event.text, ...(event.phase ? { phase: event.phase } : {}) };
    case "reasoning-delta":
      return { type: "reasoning", delta: event.text };
    case "tool-call":
      return { type: "tool-call", callId: event.callId, name: event.name, arguments: event.arguments };
    case "tool-output":
      return { type: "tool-output", callId: event.callId, chunk: event.chunk };
    case "tool-progress":
      return { type: "tool-progress", callId: event.callId, text: event.text };
    case "tool-result":
      return { type: "tool-result", callId: event.callId, name: event.name, output: event.output, isError: event.isError, denied: event.denied };
    case "notice":
      return { type: "notice", level: event.level, text: event.text };
    case "retry":
      return { type: "retry", attempt: event.attempt, maxAttempts: event.maxAttempts, delayMs: event.delayMs, reason: event.reason };
    case "compacted":
      return { ...event };
    case "error":
      return { type: "error", message: event.error.message, status: event.error.status ?? null, code: event.error.code ?? null };
    case "agent-start":
    case "agent-end":
      return { ...event };
    case "child": {
      // A grandchild's line keeps its own ids: the innermost child is the one it belongs to.
      const inner = jsonLine(event.event);
      return inner && { ...inner, agentId: event.agentId, parentCallId: event.parentCallId, ...innerIds(inner) };
    }
    case "message":
    case "end":
      return undefined;
  }
}

const innerIds = (line: object) => ("agentId" in line ? { agentId: line.agentId, parentCallId: (line as { parentCallId?: unknown }).parentCallId } : {});

/** An MCP server came up (how many tools it offers; again when its list changes), did not start, or stopped: why, in one line. */
export const mcpLine = (e: EventOf<"mcp">): object => ({
  type: "mcp",
  server: e.server,
  status: e.status,
  ...(e.tools !== undefined ? { tools: e.tools } : {}),
  ...(e.error !== undefined ? { error: e.error } : {}),
});

export type ResultLine = {
  type: "result";
  status: string;
  text: string;
  steps: number;
  usage: Usage;
  /** Only on `aborted`: the signal that stopped the run. */
  signal?: StopSignal;
  costUsd: number | null;
  sessionId: string;
};
