/** The faults the strict server serves on request (`server.inject`), one per request, in order. */
export type Fault =
  /** Answer with this HTTP status (429 → rate-limit body, or the quota body with `quota`; ≥500 → server error body). */
  | { status: number; retryAfter?: number; retryAfterMs?: number; quota?: boolean }
  /** Close the stream after this many events, before response.completed: an early EOF, the body ended cleanly. */
  | { cut: number }
  /** Reset the connection (TCP RST) after this many events: mid-body the client reads ECONNRESET; at 0 it may meet it before the headers. */
  | { reset: number }
  /** After `afterEventCount` events (default 2: created, in_progress) send `error` then `response.failed`. */
  | { errorEvent: true; afterEventCount?: number; code?: string; message?: string }
  /** Wait before answering, or, with afterEventCount, stall the stream after that many events. */
  | { delayMs: number; afterEventCount?: number }
  /** Accept and never answer; with afterEventCount, stream that many events and then go silent. Ends when the client leaves. */
  | { hang: true; afterEventCount?: number }
  /** Stream the turn (or its first afterEventCount events), then `response.incomplete` with this reason instead of completing. */
  | { incomplete: string; afterEventCount?: number }
  /** The response holds only these output items (e.g. a hosted tool's `web_search_call`), whatever the model would say. */
  | { onlyItems: Record<string, any>[] };

/** The body the API answers a request with when the account has no quota left (HTTP 429, as recorded). */
export const QUOTA_MESSAGE =
  "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.";

/** A promise that settles when the client goes away (a hanging fault's only way out). */
export const untilGone = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
