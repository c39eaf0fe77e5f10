import { onStopSignal, type StopSignal } from "../exit/stop-signals.ts";
import { surviveHangUp } from "./survive-hang-up.ts";

/**
 * How the REPL ends: once, by Ctrl-D, `/exit`, a SIGTERM from a CI runner or a closed terminal (the
 * signal remembered for the exit code, 143 or 129); `ended` resolves with the code `finish` gives.
 */
export function createLifecycle() {
  let closed = false;
  let stoppedBy: StopSignal | undefined;
  const { promise: ended, resolve } = Promise.withResolvers<number>();
  let finish: (stoppedBy: StopSignal | undefined) => Promise<number> = async () => 0;
  const close = () => {
    if (closed) return;
    closed = true;
    void finish(stoppedBy).then(resolve);
  };
  const stop = (signal: StopSignal) => {
    stoppedBy ??= signal;
    close();
  };
  surviveHangUp(() => (stoppedBy ??= "SIGHUP"));
  onStopSignal(["SIGTERM", "SIGHUP"], stop);
  return {
    get closed() {
      return closed;
    },
    close,
    /** The terminal went away (its input ended): as a SIGHUP. */
    hungUp: () => stop("SIGHUP"),
    /** What closing does (once the parts it ends exist); its answer is the exit code. */
    onClose: (run: (stoppedBy: StopSignal | undefined) => Promise<number>) => void (finish = run),
    ended,
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;
