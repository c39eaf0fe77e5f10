/**
 * The one retry policy of a model call, for a refused request and a broken stream alike: what is
 * worth asking again, and how long to wait first. Pure: the caller sleeps.
 */

/** A model call is tried at most this many times (the first try and five retries). */
export const MAX_ATTEMPTS = 6;

/**
 * What failed an attempt, as far as waiting goes. Each kind backs off on its own schedule, so a rate
 * limit does not lengthen the wait after a dropped connection, nor the other way round.
 */
export type FaultKind =
  /** 429 (not a quota): the API asked to slow down. */
  | "rate-limit"
  /** 408, 409, 5xx, or an `error` event worth retrying: the API failed this time. */
  | "server"
  /** The request was taken and the connection blinked: reset, cut short, gone silent. */
  | "dropped"
  /** Nothing answered at the base URL: refused, or a name that does not resolve. */
  | "unreachable";

type Schedule = { firstMs: number; retries: number };

const SCHEDULES: Record<FaultKind, Schedule> = {
  "rate-limit": { firstMs: 1000, retries: MAX_ATTEMPTS - 1 },
  server: { firstMs: 500, retries: MAX_ATTEMPTS - 1 },
  // A blink is nearly always over at once: asking again soon is what costs the person least.
  dropped: { firstMs: 200, retries: MAX_ATTEMPTS - 1 },
  // An endpoint that answered before is restarting, or the network blinked: two quick tries, then say so.
  unreachable: { firstMs: 250, retries: 2 },
};

// Five retries of a rate limit reach it; a longer wait is for the server to ask for.
const MAX_DELAY_MS = 10_000;
// A server asking for longer is still asked again after this; --timeout bounds the run anyway.
const MAX_RETRY_AFTER_MS = 60_000;
// Jitter only lengthens a wait, so no retry comes sooner than the backoff says.
const JITTER_SHARE = 0.25;

// Codes that fail the same way when asked again, whatever the status or stream said.
const FATAL_CODES = new Set([
  "context_length_exceeded",
  "insufficient_quota",
  "invalid_prompt",
  "invalid_api_key",
  "invalid_encrypted_content",
  "usage_not_included",
  "model_not_found",
  "max_output_tokens",
  "content_filter",
]);

/** Statuses worth another try: timeouts, conflicts, rate limits and server errors. 400, 401, 403, 404, 422 are not. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500;

/** An API error code that can never succeed on a retry (a quota, a context overflow, a bad request). */
export const isFatalCode = (code: string | undefined | null): boolean => Boolean(code && FATAL_CODES.has(code));

/** How many faults of each kind one model call has met so far. */
export type FaultCounts = Readonly<Partial<Record<FaultKind, number>>>;

export type RetryPlan = {
  delayMs: number;
  /** The most attempts this call can now make: fewer than MAX_ATTEMPTS when this kind's own budget ends sooner. */
  maxAttempts: number;
  counts: FaultCounts;
};

export type RetryInput = {
  kind: FaultKind;
  /** The server's `retry-after`, which wins over any schedule. */
  retryAfterMs?: number;
  /** The attempt that just failed (1 for the first). */
  attempt: number;
  counts: FaultCounts;
  /** Whether this endpoint ever answered in this process: a base URL never reached is not asked again. */
  reached: boolean;
  random?: () => number;
};

/** Whether to ask again after this failure, and after how long; undefined when the call should end now. */
export function planRetry(input: RetryInput): RetryPlan | undefined {
  const schedule = SCHEDULES[input.kind];
  const seen = (input.counts[input.kind] ?? 0) + 1;
  // A wrong base URL on the first day is said at once, not after a round of backoffs.
  const retries = input.kind === "unreachable" && !input.reached ? 0 : schedule.retries;
  if (input.attempt >= MAX_ATTEMPTS || seen > retries) return undefined;
  return {
    delayMs: retryDelayMs(seen, { firstMs: schedule.firstMs, retryAfterMs: input.retryAfterMs, random: input.random }),
    maxAttempts: Math.min(MAX_ATTEMPTS, input.attempt + 1 + retries - seen),
    counts: { ...input.counts, [input.kind]: seen },
  };
}

/**
 * How long to wait before the `nth` retry of one kind: the server's `retry-after` when it sent one
 * (at most 60 s), else `firstMs` doubling per retry up to 10 s, plus up to 25% jitter.
 */
function retryDelayMs(nth: number, opts: { firstMs: number; retryAfterMs?: number; random?: () => number }): number {
  if (opts.retryAfterMs !== undefined) return Math.min(Math.max(0, opts.retryAfterMs), MAX_RETRY_AFTER_MS);
  const nominal = Math.min(MAX_DELAY_MS, opts.firstMs * 2 ** (nth - 1));
  return Math.round(nominal * (1 + JITTER_SHARE * (opts.random ?? Math.random)()));
}

/** `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date) from a response's headers. */
export function retryAfterFrom(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
