import type { UsageError } from "../exit/usage-error.ts";
import { AmbiguousSession } from "../services/open-session.ts";
import { sessionsTable } from "./sessions-table.ts";

/** A usage error as a person reads it: its line, and for a prefix of several sessions' ids, those sessions. */
export function usageErrorText(err: UsageError): string {
  if (!(err instanceof AmbiguousSession)) return err.message;
  return `${err.message}\n${sessionsTable(err.matches, new Date(), err.matches.length, process.stdout.columns || Infinity)}`;
}
