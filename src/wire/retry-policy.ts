/**
 * The one retry policy of a model call, for a refused request and a broken stream alike: what is
 * worth asking again, and how long to wait first. Pure: the caller sleeps.
 */

/** A model call is tried at most this many times (the first try and five retries). */
export const MAX_ATTEMPTS = 6;

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
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

/**
 * How long to wait before retry number `retry` (1 for the second attempt): the server's
 * `retry-after` when it sent one, else 0.5 s doubling per retry up to 30 s, plus up to 25% jitter.
 */
export function retryDelayMs(retry: number, opts: { retryAfterMs?: number; random?: () => number } = {}): number {
  if (opts.retryAfterMs !== undefined) return Math.min(Math.max(0, opts.retryAfterMs), MAX_RETRY_AFTER_MS);
  const nominal = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (retry - 1));
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
