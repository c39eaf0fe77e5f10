import { composedRegion } from "../context/drop-exchanges.ts";
import { knownMeasures, measuresToStore } from "../context/known-measures.ts";
import type { WireLedger } from "../context/wire-ledger.ts";
import type { LiveSession } from "../store/live-session.ts";

// A shorter history is measured in a few milliseconds: no file for it.
const STORE_FROM = 256;
// Stored again only once this many more messages are measured, or the request dropped other steps: a resume does not rewrite the file.
const RESTORE_AFTER = 64;

type Taken = Pick<WireLedger, "entries" | "model" | "start">;
const take = (ledger: WireLedger): Taken => ({ entries: ledger.entries.slice(), model: ledger.model, start: ledger.start });

/**
 * A session's stored wire measures (`measure-cache.ts`) for the runtime's ledger, and at its close
 * the ones to store for the next resume: a resumed session's, of the log it opened, as its first
 * request measured them (a summary moves the ledger on); a new one's, of its whole log, as the
 * ledger holds them then — with the dropped region its request was composed with.
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
      if (!m || !session.saving) return;
      m.keepState(session.state);
      const measured = m.opened ? taken : take(ledger);
      if (!measured) return;
      const { stored } = m;
      const same = stored && stored.model === measured.model && stored.from === measured.start;
      const region = composedRegion(ledger);
      // A region of other steps than the one stored (made of the entries stored) is worth the write: the next resume most likely drops them again.
      const moved = region !== undefined && region.drop !== (same ? stored.region()?.drop : undefined) && region.of.every((e, k) => e === measured.entries[k]);
      try {
        const rows = measuresToStore(measured, m.opened ?? session.state.messages, moved ? STORE_FROM : Math.max(STORE_FROM, (same ? stored.offsets.length : 0) + RESTORE_AFTER), region);
        if (rows) m.save(rows);
      } catch {
        // Only a cache: the next resume measures the history itself.
      }
    },
  };
}
