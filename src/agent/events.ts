import type { Message, Usage } from "./messages.ts";
import type { ModelError } from "../wire/model-error.ts";

export type EndStatus = "done" | "max-steps" | "error" | "aborted";

/** What a run yields. The REPL and print mode render these; the core never touches the terminal. */
export type AgentEvent =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-call"; callId: string; name: string; arguments: string }
  | { type: "tool-output"; callId: string; chunk: string }
  | { type: "tool-result"; callId: string; name: string; output: string; isError: boolean; denied: boolean; display?: string }
  | { type: "notice"; level: "info" | "warn"; text: string }
  | { type: "compacted"; messagesBefore: number; messagesAfter: number; tokensBefore: number; tokensAfter: number }
  /** A message was appended to the history (stores save on this). */
  | { type: "message"; message: Message }
  | { type: "error"; error: ModelError }
  | { type: "end"; status: EndStatus; steps: number; usage: Usage; denials: number };
