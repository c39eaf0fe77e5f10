import type { Message, Phase, Usage } from "../session/messages.ts";
import type { ModelError } from "../wire/model-error.ts";

/**
 * How a run ended. `incomplete`: the API stopped the answer early (its text is kept); `timeout`:
 * the run's signal was aborted with RUN_TIMEOUT as its reason; `max-cost`: its cost limit was reached.
 */
export type EndStatus = "done" | "max-steps" | "max-cost" | "timeout" | "incomplete" | "error" | "aborted";

export { RUN_TIMEOUT } from "../session/stop-reason.ts";

/** What a run yields. The REPL and print mode render these; the core never touches the terminal. */
export type AgentEvent =
  | { type: "text-delta"; text: string; phase?: Phase }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-call"; callId: string; name: string; arguments: string }
  | { type: "tool-output"; callId: string; chunk: string }
  /** How far a long call has got, as its tool tells it (an MCP server's progress): for a status line, not the model. */
  | { type: "tool-progress"; callId: string; text: string }
  | { type: "tool-result"; callId: string; name: string; output: string; isError: boolean; denied: boolean; display?: string }
  | { type: "notice"; level: "info" | "warn"; text: string }
  /** The model call is asked again: attempt `attempt` of `maxAttempts`, after `delayMs`; its answer streams again. */
  | { type: "retry"; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  | { type: "compacted"; messagesBefore: number; messagesAfter: number; tokensBefore: number; tokensAfter: number }
  /** A message joined the history (the log already holds it; a renderer shows it). */
  | { type: "message"; message: Message }
  | { type: "error"; error: ModelError }
  | { type: "end"; status: EndStatus; steps: number; usage: Usage; denials: number }
  /** A child agent began, for the call `parentCallId` of its parent (the `task` tool). */
  | { type: "agent-start"; agentId: string; parentCallId: string; agent: string; description: string }
  /** One of a child's own events, as it happens (a grandchild's comes wrapped twice). */
  | { type: "child"; agentId: string; parentCallId: string; event: AgentEvent }
  /** A child ended: how, and what it used (its own, and its children's). */
  | { type: "agent-end"; agentId: string; parentCallId: string; status: EndStatus; steps: number; usage: Usage };
