import type { EndStatus } from "../loop/events.ts";
import type { Message } from "../session/messages.ts";
import type { StopReason } from "./acp-types.ts";

/**
 * Why a turn stopped, as ACP says it: a limit on the model calls (steps, cost) is `max_turn_requests`,
 * an answer the API cut short is `max_tokens` or, by its content filter, `refusal`; a turn stopped
 * (`session/cancel`) is `cancelled`. Undefined for an error, which the prompt answers as one. Pure.
 */
export function stopReason(status: EndStatus, messages: readonly Message[]): StopReason | undefined {
  switch (status) {
    case "done":
      return "end_turn";
    case "max-steps":
    case "max-cost":
      return "max_turn_requests";
    case "aborted":
    case "timeout":
      return "cancelled";
    case "incomplete": {
      const last = messages.findLast((m) => m.role === "assistant");
      return last?.role === "assistant" && last.incomplete === "content_filter" ? "refusal" : "max_tokens";
    }
    case "error":
      return undefined;
  }
}
