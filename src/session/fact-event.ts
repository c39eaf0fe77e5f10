import type { TurnFact } from "./turn-fact.ts";
import type { SessionState } from "./reduce-session.ts";
import type { SessionEvent } from "./session-event.ts";

/** The log line for a fact the loop committed; an answer belongs to the call in flight. */
export function factEvent(fact: TurnFact, state: SessionState, at: string): SessionEvent {
  switch (fact.type) {
    case "answer":
      return {
        type: "response",
        step: state.callLog.calls.length,
        status: fact.status,
        ...(fact.message ? { message: fact.message } : {}),
        ...(fact.usage && !fact.message?.usage ? { usage: fact.usage } : {}),
        ...(fact.error !== undefined ? { error: fact.error } : {}),
        at,
      };
    case "verdict":
      return { type: "verdict", callId: fact.callId, allowed: fact.allowed, ...(fact.sandbox ? { sandbox: fact.sandbox } : {}), ...(fact.reason ? { reason: fact.reason } : {}) };
    case "tool":
      return { type: "tool", callId: fact.callId };
    case "result":
      return { type: "result", callId: fact.callId, output: fact.output, ...(fact.isError ? { isError: true } : {}), ...(fact.denied ? { denied: true } : {}), ...(fact.images?.length ? { images: fact.images } : {}), ...(fact.child ? { child: fact.child } : {}) };
  }
}
