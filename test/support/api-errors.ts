/** The real API's error bodies for failures that are not input rules (those live in check-input.ts). */
import type { ApiError } from "./check-input.ts";

const error = (status: number, message: string, type: string, param: string | null, code: string | null): ApiError => ({
  status,
  body: { error: { message, type, param, code } },
});

export const missingApiKey = () =>
  error(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.",
    "invalid_request_error",
    null,
    null,
  );

export const rateLimited = (model: string, retryAfterSeconds = 1) =>
  error(
    429,
    `Rate limit reached for ${model} in organization org-strictserver on tokens per min (TPM): Limit 30000, Used 29800, Requested 1200. Please try again in ${retryAfterSeconds}s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
    "tokens",
    null,
    "rate_limit_exceeded",
  );

export const quotaExceeded = (message: string) => error(429, message, "insufficient_quota", null, "insufficient_quota");

export const serverError = (status = 500, message = "The server had an error while processing your request. Sorry about that!") =>
  error(status, message, "server_error", null, null);

export const CONTEXT_TOO_LONG_MESSAGE =
  "Your input exceeds the context window of this model. Please adjust your input and try again.";

export const contextTooLong = () => error(400, CONTEXT_TOO_LONG_MESSAGE, "invalid_request_error", "input", "context_length_exceeded");

export const invalidJson = () =>
  error(
    400,
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
    "invalid_request_error",
    null,
    null,
  );

export const invalidUrl = (method: string, path: string) =>
  error(404, `Invalid URL (${method} ${path})`, "invalid_request_error", null, null);

export const modelNotFound = (model: string) =>
  error(400, `The requested model '${model}' does not exist.`, "invalid_request_error", "model", "model_not_found");

/** `GET /v1/models/{id}` for a model the endpoint does not have. */
export const noSuchModel = (model: string) =>
  error(404, `The model '${model}' does not exist`, "invalid_request_error", "model", "model_not_found");

/** The in-stream failure the API sends after HTTP 200 (nested under `error`, as recorded). */
export const IN_STREAM_SERVER_ERROR = {
  type: "server_error",
  code: "server_error",
  message:
    "An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists.",
  param: null,
};
