/** The signals that end a run the way Ctrl-C does: the turn is aborted, the session saved. */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/** 128 + the signal's number, the shell's convention for a process a signal ended. */
const EXIT_CODES: Record<StopSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export const stopExitCode = (signal: StopSignal) => EXIT_CODES[signal];

/** How stderr names the stop: `interrupted` (Ctrl-C) or `stopped by SIGTERM`. */
export const stoppedWords = (signal: StopSignal) => (signal === "SIGINT" ? "interrupted" : `stopped by ${signal}`);

/**
 * Calls `stop` on the first of `signals` to arrive. Each is caught once: the same signal again gets its
 * default action and ends shiro at once (the bash tool's lifeline still kills a running command); a
 * different one is ignored, so a terminal closing during a SIGTERM's save does not cut it short.
 */
export function onStopSignal(signals: readonly StopSignal[], stop: (signal: StopSignal) => void): void {
  let stopped = false;
  for (const signal of signals)
    process.once(signal, () => {
      if (stopped) return;
      stopped = true;
      stop(signal);
    });
}

/**
 * A closed terminal (EIO) or pipe (EPIPE) makes writes fail with an 'error' event, which unheard would
 * crash shiro before it saves; what can no longer be shown is dropped instead.
 */
export function dropFailedWrites(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
}
