import { toolCallsOf } from "./messages.ts";
import type { SessionState } from "./reduce-session.ts";

/**
 * What became of a session's last run, as `shiro sessions` shows it. Every state is continued by
 * `-c` alike: the person's prompt is their work, whatever the run made of it.
 * - `answered`: the last prompt got its final answer;
 * - `no-answer`: it got none — the model could not be reached or refused, or the run stopped before the call;
 * - `incomplete`: the API cut the answer short (output limit, content filter); its text is kept;
 * - `interrupted`: the run was stopped mid-turn (Ctrl-C, a signal, --timeout, a kill, --max-steps);
 * - `damaged`: the log has a line that cannot be read (decided when it is read, never by the reducer).
 */
export type RunState = "answered" | "no-answer" | "incomplete" | "interrupted" | "damaged";

export const RUN_STATES: readonly RunState[] = ["answered", "no-answer", "incomplete", "interrupted", "damaged"];

/** How a state reads in a table. */
export const runStateText = (state: RunState): string => (state === "no-answer" ? "no answer" : state);

/** The state of a log that reduced without fault. */
export function runStateOf(s: Pick<SessionState, "messages" | "callLog">): Exclude<RunState, "damaged"> {
  const last = s.messages.at(-1);
  if (!last) return "no-answer";
  if (last.role === "assistant") {
    if (last.incomplete === "aborted") return "interrupted";
    if (last.incomplete) return "incomplete";
    return toolCallsOf(last).length ? "interrupted" : "answered";
  }
  // A call built from the history as it stands was sent for it (an undo may leave older calls behind).
  const call = s.callLog.calls.at(-1);
  if (call && call.messageCount === s.messages.length) {
    switch (call.response?.status) {
      case undefined: // in flight when the process died
      case "aborted":
        return "interrupted";
      case "incomplete":
        return "incomplete";
      case "error":
        return "no-answer";
      default:
        return "answered";
    }
  }
  if (last.role === "user") return "no-answer";
  // Results that no call took up (--max-steps, --max-cost, a kill between the two).
  if (last.role === "tool") return "interrupted";
  return "answered"; // a `/compact` after the turn ended
}
