import type { ModelError } from "./model-error.ts";
import type { ModelEvent, ModelStream } from "./model-stream.ts";
import { createResponseAssembler } from "./assemble-response.ts";
import { oneLine } from "../text/one-line.ts";
import { streamFailureToModelError, type StreamFailure } from "./stream-error.ts";

export type OpenAIStreamOptions = {
  apiKey: string;
  /** Defaults to `OPENAI_BASE_URL`, then `https://api.openai.com/v1` (the SDK's own lookup). */
  baseURL?: string;
  /** The SDK's retries of a refused request (connection errors, 408, 409, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** How long to wait for response headers. Default: the SDK's 10 minutes. */
  timeoutMs?: number;
};

type Sdk = typeof import("openai");

const CUT = "the stream ended before the response completed";

/**
 * The real ModelStream over the `openai` SDK. The SDK retries refused requests; a stream that breaks
 * after it started (cut, or an `error` event worth retrying) is asked again once here. It never
 * throws: every failure, including an abort, ends as one `error` event.
 */
export function createOpenAIStream(opts: OpenAIStreamOptions): ModelStream {
  // Loaded on the first call, so commands that never talk to the model never load the SDK.
  let sdk: Promise<Sdk> | undefined;

  return async function* stream(body, signal): AsyncGenerator<ModelEvent> {
    const assemblerFor = () => createResponseAssembler(body.model ?? "");
    let assembler = assemblerFor();
    try {
      const loaded = await (sdk ??= import("openai"));
      let requests = 0;
      const client = new loaded.OpenAI({
        apiKey: opts.apiKey,
        ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
        maxRetries: opts.maxRetries ?? 2,
        ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : {}),
        logLevel: "off",
        // Counted so an error can say how many attempts the SDK made.
        fetch: (input, init) => {
          requests++;
          return fetch(input, init);
        },
      });

      for (let attempt = 1; ; attempt++) {
        assembler = assemblerFor();
        let end: ModelEvent | undefined;
        let started = false;
        try {
          const events = await client.responses.create(body, { signal });
          started = true;
          for await (const event of events) {
            const out = assembler.push(event);
            if (out?.type === "done" || out?.type === "error") {
              end = out;
              break;
            }
            if (out) yield out;
          }
        } catch (err) {
          if (!signal.aborted) end = { type: "error", error: toModelError(err, loaded, started, requests, client.baseURL), partial: assembler.partial() };
        }
        if (signal.aborted) break;
        if (end?.type === "done") return yield end;

        const error: ModelError = end?.type === "error" ? end.error : { message: CUT, retryable: true };
        if (started && error.retryable && attempt === 1) {
          yield { type: "retry", attempt: attempt + 1, reason: error.message };
          continue;
        }
        const final = attempt > 1 && error.message === CUT ? { ...error, message: `${CUT} (after ${attempt} attempts)` } : error;
        return yield { type: "error", error: final, partial: assembler.partial() };
      }
    } catch (err) {
      if (!signal.aborted) return yield { type: "error", error: { message: oneLine(`model call failed: ${String(err)}`), retryable: false } };
    }
    yield { type: "error", error: { message: "aborted", retryable: false }, partial: assembler.partial() };
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: "bad request",
  401: "unauthorized (check the API key)",
  403: "forbidden",
  404: "not found",
  408: "request timeout",
  409: "conflict",
  429: "rate limited",
};

const retryableStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

function toModelError(err: unknown, sdk: Sdk, started: boolean, requests: number, baseURL: string): ModelError {
  const attempts = requests > 1 ? ` (after ${requests} attempts)` : "";
  if (err instanceof sdk.APIConnectionTimeoutError) return { message: `the request to ${baseURL} timed out${attempts}`, retryable: true };
  if (err instanceof sdk.APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const why = cause instanceof Error ? `: ${cause.message}` : "";
    return { message: oneLine(`could not reach ${baseURL}${why}${attempts} — check the network, or --base-url / OPENAI_BASE_URL`), retryable: true };
  }
  if (err instanceof sdk.APIError) {
    const detail = (err.error ?? {}) as StreamFailure;
    // Without a status it came from an `error` event inside a stream that had started.
    if (err.status === undefined) return streamFailureToModelError({ message: detail.message, code: err.code, type: err.type });
    const status = err.status;
    const text = detail.message || STATUS_TEXT[status] || (status >= 500 ? "server error" : "request failed");
    const code = err.code ?? undefined;
    return {
      message: oneLine(`${status} ${text}${attempts}`),
      status,
      ...(code ? { code } : {}),
      retryable: retryableStatus(status) && code !== "insufficient_quota",
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  // A body that breaks mid-stream (reset connection, malformed event) is worth another try.
  return started ? { message: oneLine(`the stream broke: ${message}`), retryable: true } : { message: oneLine(`model call failed: ${message}`), retryable: false };
}
