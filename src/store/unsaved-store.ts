import { resolve } from "node:path";
import { liveSession, sessionLine } from "./live-session.ts";
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
    saves: false,
    create: async ({ cwd, model, parent }) => liveSession({ path: "", first: sessionLine(Bun.randomUUIDv7(), resolve(cwd), model, new Date().toISOString(), undefined, parent), unsaved: true }),
    open: async () => ({ ok: false, error: { kind: "missing", message: NONE } }),
    read: async () => ({ ok: false, kind: "missing", message: NONE }),
    sizeOf: () => undefined,
    list: async () => ({ sessions: [], warnings: [] }),
    openNewest: async () => undefined,
    resolvePrefix: async (prefix) => ({ kind: "none", prefix }),
    remember: async () => {},
    stopSaving: () => {},
  };
}
