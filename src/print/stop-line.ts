import { stoppedWords, type StopSignal } from "../cli/stop-signals.ts";
import { modelCalls } from "../ui/tool-line.ts";
import type { PrintOutcome } from "./render-print.ts";

/**
 * What stderr says when a run stopped before the model finished, and how to go on: from the saved
 * session with `shiro -c`, or — an `--ephemeral` run, or one whose home cannot be written, keeps nothing — by running again.
 */
export function stopLine(outcome: PrintOutcome, opts: { signal?: StopSignal; costUsd: number | null; saved: true | string }): string | undefined {
  const goOn = (raise?: string) =>
    opts.saved === true
      ? `the session is saved (continue it with shiro -c${raise ? `, or raise ${raise}` : ""})`
      : `nothing is saved (${opts.saved})${raise ? `; raise ${raise} and run again` : ""}`;
  if (opts.signal) return `${stoppedWords(opts.signal)}; ${goOn()}`;
  switch (outcome.status) {
    case "timeout":
      return `stopped at --timeout; the job is not finished and ${goOn("--timeout")}`;
    case "max-steps":
      return `stopped after ${modelCalls(outcome.steps)} (--max-steps); the job is not finished and ${goOn("--max-steps")}`;
    case "max-cost":
      return `stopped at --max-cost after ${modelCalls(outcome.steps)} costing $${opts.costUsd?.toFixed(4)}; the job is not finished and ${goOn("--max-cost")}`;
  }
  return undefined;
}
