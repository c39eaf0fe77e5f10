import type { EndStatus } from "../agent/events.ts";

export const EXIT = { ok: 0, failure: 1, usage: 2, limit: 3, denied: 4, interrupted: 130 } as const;

/** The documented exit codes, by precedence: interrupted, failure, a limit (steps, time), denial, success. */
export function exitCodeFor(status: EndStatus, denials: number): number {
  if (status === "aborted") return EXIT.interrupted;
  if (status === "error" || status === "incomplete") return EXIT.failure;
  if (status === "max-steps" || status === "timeout") return EXIT.limit;
  return denials > 0 ? EXIT.denied : EXIT.ok;
}
