import { knownMeasures, measuresToStore } from "../context/known-measures.ts";
import type { KnownMeasures, WireLedger } from "../context/wire-ledger.ts";
import type { LiveSession } from "../store/live-session.ts";

// A shorter history is measured in a few milliseconds: no file for it.
const STORE_FROM = 256;
// Stored again only once this many more messages are measured: a resume does not rewrite the file.
const RESTORE_AFTER = 64;

/**
 * A resumed session's stored wire measures (`measure-cache.ts`), for the runtime's ledger, and the
 * ones its first request measured, stored at the session's close for the next resume.
 */
export function measureKeeper(session: LiveSession) {
  const m = session.measures;
  let taken: Pick<WireLedger, "entries" | "model" | "start"> | undefined;
  return {
    known: (m?.stored && knownMeasures(m.stored, m.opened)) as KnownMeasures | undefined,
    /** The ledger has just measured the history for a request: the first time, what it holds is kept (it moves on after a summary). */
    measured(ledger: WireLedger) {
      if (m && !taken) taken = { entries: ledger.entries.slice(), model: ledger.model, start: ledger.start };
    },
    close() {
      if (!m || !taken || !session.saving) return;
      const { stored } = m;
      const covered = stored && stored.model === taken.model && stored.from === taken.start ? stored.offsets.length : 0;
      try {
        const rows = measuresToStore(taken, m.opened, Math.max(STORE_FROM, covered + RESTORE_AFTER));
        if (rows) m.save(rows);
      } catch {
        // Only a cache: the next resume measures the history itself.
      }
    },
  };
}
