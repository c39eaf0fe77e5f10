import type { TurnFact } from "./turn-fact.ts";
import type { SessionState } from "./reduce-session.ts";
import type { SessionEvent } from "./session-event.ts";
import { storeImages } from "./stored-images.ts";

/** The log lines for a fact the loop committed: an answer belongs to the call in flight; a result's new images go first, on lines of their own. */
export function factEvents(fact: TurnFact, state: SessionState, at: string): SessionEvent[] {
  switch (fact.type) {
    case "answer":
      return [
        {
          type: "response",
          step: state.callLog.calls.length,
          status: fact.status,
          ...(fact.message ? { message: fact.message } : {}),
          ...(fact.usage && !fact.message?.usage ? { usage: fact.usage } : {}),
          ...(fact.error !== undefined ? { error: fact.error } : {}),
          at,
        },
      ];
    case "verdict":
      return [{ type: "verdict", callId: fact.callId, allowed: fact.allowed, ...(fact.sandbox ? { sandbox: fact.sandbox } : {}), ...(fact.reason ? { reason: fact.reason } : {}) }];
    case "tool":
      return [{ type: "tool", callId: fact.callId }];
    case "result": {
      const { lines, hashes } = storeImages(fact.images ?? [], state.images);
      const flags = { ...(fact.isError ? { isError: true as const } : {}), ...(fact.denied ? { denied: true as const } : {}) };
      return [...lines, { type: "result", callId: fact.callId, output: fact.output, ...flags, ...(hashes.length ? { images: hashes } : {}), ...(fact.child ? { child: fact.child } : {}) }];
    }
  }
}
