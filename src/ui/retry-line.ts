import type { AgentEvent } from "../loop/events.ts";

/** How a retried model call's line begins: renderers key the replay of its answer on it. */
export const RETRY_NOTICE = "retrying model call";

type Retry = Extract<AgentEvent, { type: "retry" }>;

/** `retrying model call (attempt 3 of 6) in 2.1 s: the stream broke: ECONNRESET` */
export const retryLine = (event: Retry): string =>
  `${RETRY_NOTICE} (attempt ${event.attempt} of ${event.maxAttempts}) in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`;
