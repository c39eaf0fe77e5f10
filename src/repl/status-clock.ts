import type { AgentEvent } from "../loop/events.ts";
import { nextStatus, startStatus, STATUS_TICK_MS, type Activity, type Status } from "./status-line.ts";

/** The status line's state while work goes on: what it waits for, since when, and the tick that moves its clock. */
export function createStatusClock(render: () => void) {
  let status: Status | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  /** Quick slash commands finish before their status line would show: it (and the prompt) wait this long. */
  let after = 0;
  return {
    /** The status now, and whether it is due to show. */
    now: (at: number) => (status ? { status, due: at - status.startedAt >= after } : undefined),
    busy(activity: Activity | undefined, delayMs: number): void {
      status = startStatus(Date.now(), activity);
      after = delayMs;
      clearInterval(ticker);
      ticker = setInterval(render, STATUS_TICK_MS);
    },
    event(event: AgentEvent): void {
      if (status) status = nextStatus(status, event, Date.now());
    },
    idle(): void {
      clearInterval(ticker);
      status = undefined;
    },
  };
}
