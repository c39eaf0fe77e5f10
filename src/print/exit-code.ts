import type { EndStatus } from "../agent/events.ts";

export const EXIT = { ok: 0, failure: 1, usage: 2, maxSteps: 3, denied: 4, interrupted: 130 } as const;

/** The documented exit codes, by precedence: interrupted, failure, max steps, denial, success. */
export function exitCodeFor(status: EndStatus, denials: number): number {
  if (status === "aborted") return EXIT.interrupted;
  if (status === "error") return EXIT.failure;
  if (status === "max-steps") return EXIT.maxSteps;
  return denials > 0 ? EXIT.denied : EXIT.ok;
}
