import type { FaultKind } from "./retry-policy.ts";

/** A failed model call, carrying what the caller acts on. Never thrown into the loop. */
export type ModelError = {
  message: string;
  /** HTTP status when the API answered with one; absent for cut streams and network failures. */
  status?: number;
  /** The API's error code, e.g. `context_length_exceeded`, `rate_limit_exceeded`. */
  code?: string;
  retryable: boolean;
  /** Which backoff a retryable failure follows (retry-policy.ts). */
  fault?: FaultKind;
  /** What to check, added to the final error line (not to each retry's). */
  hint?: string;
  /** How long the server asked us to wait before asking again (`retry-after`, `retry-after-ms`). */
  retryAfterMs?: number;
};

/** The function a 400 names when the API refuses a tool's schema (`Invalid schema for function 'x': …`), if that is what it was. */
export function rejectedToolName(error: ModelError): string | undefined {
  if (error.code !== "invalid_function_parameters") return undefined;
  return /Invalid schema for function '([^']+)'/.exec(error.message)?.[1];
}
