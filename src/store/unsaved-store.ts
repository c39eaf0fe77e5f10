import { resolve } from "node:path";
import { createSessionReducer } from "../session/reduce-session.ts";
import type { SessionEvent } from "../session/session-event.ts";
import { sessionLine, type LiveSession } from "./live-session.ts";
import type { SessionStore } from "./session-store.ts";

const NONE = "an --ephemeral run keeps no sessions";

/**
 * The store of an `--ephemeral` run: its session is the same events through the same reducer as a
 * saved one, kept in memory only, so the run behaves exactly as it would saved and leaves nothing
 * under $SHIRO_HOME — no log, no lock, no index entry. There is nothing to list, open or continue.
 */
export function createUnsavedStore(): SessionStore {
  return {
    dir: "",
    create: async ({ cwd, model }) => unsavedSession(sessionLine(Bun.randomUUIDv7(), resolve(cwd), model, new Date().toISOString())),
    open: async () => ({ ok: false, error: { kind: "missing", message: NONE } }),
    read: async () => ({ ok: false, kind: "missing", message: NONE }),
    list: async () => ({ sessions: [], unanswered: [], warnings: [] }),
    openNewest: async () => undefined,
    resolvePrefix: async (prefix) => ({ kind: "none", prefix }),
    remember: async () => {},
  };
}

function unsavedSession(first: SessionEvent): LiveSession {
  const reducer = createSessionReducer();
  reducer.apply(first);
  return {
    get id() {
      return reducer.state!.id;
    },
    path: "",
    get state() {
      return reducer.state!;
    },
    // As a saved session's: the events before an impossible one are applied, and it throws.
    append: (...events) => events.forEach((event) => reducer.apply(event)),
    written: 0,
    close: () => {},
  };
}
