import type { EndStatus } from "../loop/events.ts";
import { stopExitCode, type StopSignal } from "../exit/stop-signals.ts";

export const EXIT = { ok: 0, failure: 1, usage: 2, limit: 3, denied: 4 } as const;

/** The documented exit codes, by precedence: stopped by a signal (129, 130, 143), failure, a limit (steps, cost, time), denial, success. */
export function exitCodeFor(status: EndStatus, denials: number, stoppedBy: StopSignal = "SIGINT"): number {
  if (status === "aborted") return stopExitCode(stoppedBy);
  if (status === "error" || status === "incomplete") return EXIT.failure;
  if (status === "max-steps" || status === "max-cost" || status === "timeout") return EXIT.limit;
  return denials > 0 ? EXIT.denied : EXIT.ok;
}
