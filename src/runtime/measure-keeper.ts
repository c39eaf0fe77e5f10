import { knownMeasures, measuresToStore } from "../context/known-measures.ts";
import type { WireLedger } from "../context/wire-ledger.ts";
import type { LiveSession } from "../store/live-session.ts";

// A shorter history is measured in a few milliseconds: no file for it.
const STORE_FROM = 256;
// Stored again only once this many more messages are measured: a resume does not rewrite the file.
const RESTORE_AFTER = 64;

type Taken = Pick<WireLedger, "entries" | "model" | "start">;
const take = (ledger: WireLedger): Taken => ({ entries: ledger.entries.slice(), model: ledger.model, start: ledger.start });

/**
 * A session's stored wire measures (`measure-cache.ts`) for the runtime's ledger, and at its close
 * the ones to store for the next resume: a resumed session's, of the log it opened, as its first
 * request measured them (a summary moves the ledger on); a new one's, of its whole log, as the
 * ledger holds them then.
 */
export function measureKeeper(session: LiveSession) {
  const m = session.measures;
  let taken: Taken | undefined;
  return {
    known: m?.stored && m.opened ? knownMeasures(m.stored, m.opened) : undefined,
    /** The ledger has just measured the history for a request. */
    measured(ledger: WireLedger) {
      if (m?.opened && !taken) taken = take(ledger);
    },
    close(ledger: WireLedger) {
      const measured = m?.opened ? taken : take(ledger);
      if (!m || !measured || !session.saving) return;
      const { stored } = m;
      const covered = stored && stored.model === measured.model && stored.from === measured.start ? stored.offsets.length : 0;
      try {
        const rows = measuresToStore(measured, m.opened ?? session.state.messages, Math.max(STORE_FROM, covered + RESTORE_AFTER));
        if (rows) m.save(rows);
      } catch {
        // Only a cache: the next resume measures the history itself.
      }
    },
  };
}
