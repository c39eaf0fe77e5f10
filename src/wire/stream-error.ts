import type { ModelError } from "./model-error.ts";
import { isFatalCode } from "./retry-policy.ts";
import { oneLine } from "../text/one-line.ts";

/** What the API says about a failure inside a stream (an `error` event or a failed response). */
export type StreamFailure = { message?: string | null; code?: string | null; type?: string | null };

/** Anything but a fatal code or an invalid request (server_error, overloaded, rate limits, unknown codes) is worth a retry. */
export function streamFailureToModelError(failure: StreamFailure): ModelError {
  const code = failure.code ?? undefined;
  const retryable = !isFatalCode(code) && failure.type !== "invalid_request_error";
  return {
    message: oneLine(failure.message || (code ? `the model failed (${code})` : "the model failed without a message")),
    ...(code ? { code } : {}),
    retryable,
    ...(retryable ? { fault: code === "rate_limit_exceeded" ? ("rate-limit" as const) : ("server" as const) } : {}),
  };
}
