import type { ModelError } from "./model-error.ts";
import { oneLine } from "../text/one-line.ts";

/** What the API says about a failure inside a stream (an `error` event or a failed response). */
export type StreamFailure = { message?: string | null; code?: string | null; type?: string | null };

// Failures that fail the same way when asked again; anything else (server_error, overloaded,
// rate_limit_exceeded, unknown codes) is worth one more try.
const FATAL_CODES = new Set([
  "context_length_exceeded",
  "insufficient_quota",
  "invalid_prompt",
  "invalid_encrypted_content",
  "usage_not_included",
  "max_output_tokens",
  "content_filter",
]);

export function streamFailureToModelError(failure: StreamFailure): ModelError {
  const code = failure.code ?? undefined;
  const retryable = !(code && FATAL_CODES.has(code)) && failure.type !== "invalid_request_error";
  return {
    message: oneLine(failure.message || (code ? `the model failed (${code})` : "the model failed without a message")),
    ...(code ? { code } : {}),
    retryable,
  };
}
