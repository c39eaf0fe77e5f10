import { withV1 } from "./base-url.ts";
import type { ModelError } from "./model-error.ts";
import { isFatalCode, isRetryableStatus, retryAfterFrom } from "./retry-policy.ts";
import { streamFailureToModelError, type StreamFailure } from "./stream-error.ts";
import { oneLine } from "../text/one-line.ts";
import { withoutRuntimeHint } from "../text/runtime-hint.ts";

type Sdk = typeof import("openai");

const STATUS_TEXT: Record<number, string> = {
  400: "bad request",
  401: "unauthorized (check the API key)",
  403: "forbidden",
  404: "not found",
  408: "request timeout",
  409: "conflict",
  422: "unprocessable request",
  429: "rate limited",
};

// A connection that never opened: nothing listens there, or the name does not resolve.
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ConnectionRefused", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "FailedToOpenSocket"]);

/** What the SDK threw for one attempt, as a ModelError. `started`: the response headers had arrived. */
export function sdkErrorToModelError(err: unknown, sdk: Sdk, started: boolean, baseURL: string): ModelError {
  if (err instanceof sdk.APIConnectionTimeoutError) return { message: `the request to ${baseURL} timed out`, retryable: true, fault: "dropped" };
  if (err instanceof sdk.APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const why = cause instanceof Error ? `: ${withoutRuntimeHint(cause.message)}` : "";
    if (UNREACHABLE_CODES.has(String((cause as { code?: unknown } | undefined)?.code)))
      return { message: oneLine(`could not reach ${baseURL}${why}`), hint: "check the network, or --base-url / OPENAI_BASE_URL", retryable: true, fault: "unreachable" };
    // It connected and the connection broke before the headers were read: a blink, not a wrong address.
    return { message: oneLine(`the connection to ${baseURL} broke${why}`), retryable: true, fault: "dropped" };
  }
  if (err instanceof sdk.APIError) {
    const detail = (err.error ?? {}) as StreamFailure;
    // Without a status it came from an `error` event inside a stream that had started.
    if (err.status === undefined) return streamFailureToModelError({ message: detail.message, code: err.code, type: err.type });
    const status = err.status;
    const text = detail.message || STATUS_TEXT[status] || (status >= 500 ? "server error" : "request failed");
    const code = err.code ?? undefined;
    const retryAfterMs = retryAfterFrom(err.headers as Headers | undefined);
    // A 404 for a path (not a model) from a base URL without /v1 is nearly always the missing /v1.
    const meant = status === 404 && code !== "model_not_found" ? withV1(baseURL) : undefined;
    const retryable = isRetryableStatus(status) && !isFatalCode(code);
    return {
      message: oneLine(`${status} ${text}`),
      status,
      ...(code ? { code } : {}),
      retryable,
      ...(retryable ? { fault: status === 429 ? ("rate-limit" as const) : ("server" as const) } : {}),
      ...(meant ? { hint: `did you mean ${meant}?` } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  // A body that breaks mid-stream (reset connection, malformed event) is worth another try.
  return started
    ? { message: oneLine(`the stream broke: ${err instanceof Error ? withoutRuntimeHint(err.message) : String(err)}`), retryable: true, fault: "dropped" }
    : { message: oneLine(`model call failed: ${err instanceof Error ? withoutRuntimeHint(err.message) : String(err)}`), retryable: false };
}
