import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { AssistantMessage } from "../session/messages.ts";
import type { ModelError } from "./model-error.ts";
import type { ModelEvent, ModelStream, RequestBody } from "./model-stream.ts";
import { createResponseAssembler } from "./assemble-response.ts";
import { bodyJson } from "./body-json.ts";
import { createIdleWatchdog } from "./idle-watchdog.ts";
import { planRetry, type FaultCounts } from "./retry-policy.ts";
import { sdkErrorToModelError } from "./sdk-error.ts";
import { oneLine } from "../text/one-line.ts";

export type OpenAIStreamOptions = {
  apiKey: string;
  /** Defaults to `OPENAI_BASE_URL`, then DEFAULT_BASE_URL (the SDK's own lookup). */
  baseURL?: string;
  /** An attempt is abandoned (and retried) after this long without a byte from the API. */
  idleTimeoutMs: number;
  /** Waits out a backoff; ends early when the signal aborts. Tests pass a faster one. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

type Sdk = typeof import("openai");
/** How one attempt ended: with its last event (an answer, or the abort), or failed and perhaps worth another. */
type Attempt = { ended: ModelEvent } | { failed: ModelError; partial: AssistantMessage };

const CUT = "the stream ended before the response completed";
const NO_KEY = "OPENAI_API_KEY is not set: export it and start shiro again (or point --base-url at a Responses-compatible server and set any key); nothing was sent";

/**
 * The real ModelStream over the `openai` SDK. Every retry is ours (the SDK's are off), so a refused
 * request and a broken stream follow one policy (retry-policy.ts) and each retry is announced. It
 * never throws: every failure, including an abort, ends as one `error` event.
 */
export function createOpenAIStream(opts: OpenAIStreamOptions): ModelStream {
  // Loaded on the first call, so commands that never talk to the model never load the SDK.
  let sdk: Promise<Sdk> | undefined;
  const sleep = opts.sleep ?? abortableSleep;
  // Once the endpoint has answered, a refusal is a restart or a blink worth a quick retry.
  let reached = false;

  return async function* stream(body, signal): AsyncGenerator<ModelEvent> {
    // The REPL opens without a key: a prompt then gets this, not a 401 from the API.
    if (!opts.apiKey) return yield { type: "error", error: { message: NO_KEY, retryable: false } };
    let loaded: Sdk;
    try {
      loaded = await (sdk ??= import("openai"));
    } catch (err) {
      return yield { type: "error", error: { message: oneLine(`model call failed: ${String(err)}`), retryable: false } };
    }
    // Serialised once, here: the SDK's own encoder would pass every value of the body through a replacer (to find `stream`), milliseconds for a long history's.
    const json = bodyJson(body);
    let counts: FaultCounts = {};
    for (let attempt = 1; ; attempt++) {
      const outcome: Attempt = yield* tryOnce(loaded, body, json, signal);
      if ("ended" in outcome) return yield outcome.ended;
      const error = outcome.failed;
      const plan = error.retryable ? planRetry({ kind: error.fault ?? "server", retryAfterMs: error.retryAfterMs, attempt, counts, reached }) : undefined;
      if (!plan) {
        const { hint, ...rest } = error;
        const message = `${error.message}${attempt > 1 ? ` (after ${attempt} attempts)` : ""}${hint ? ` — ${hint}` : ""}`;
        return yield { type: "error", error: { ...rest, message }, partial: outcome.partial };
      }
      counts = plan.counts;
      yield { type: "retry", attempt: attempt + 1, maxAttempts: plan.maxAttempts, delayMs: plan.delayMs, reason: error.message };
      await sleep(plan.delayMs, signal);
      if (signal.aborted) return yield { type: "error", error: { message: "aborted", retryable: false } };
    }
  };

  /** One request (`body` as `json`) and its stream, watched for silence; yields the deltas, returns how it ended. */
  async function* tryOnce(loaded: Sdk, body: RequestBody, json: string | Uint8Array, signal: AbortSignal): AsyncGenerator<ModelEvent, Attempt> {
    const assembler = createResponseAssembler(body.model ?? "");
    const idle = createIdleWatchdog(opts.idleTimeoutMs);
    const client = new loaded.OpenAI({
      apiKey: opts.apiKey,
      ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
      maxRetries: 0,
      logLevel: "off",
      fetch: idle.fetch,
    });
    let started = false;
    let failure: ModelError | undefined;
    try {
      const events = await client.post<AsyncIterable<ResponseStreamEvent>>("/responses", {
        body: json,
        headers: { "content-type": "application/json" },
        stream: true,
        signal: AbortSignal.any([signal, idle.signal]),
      });
      started = true;
      for await (const event of events) {
        const out = assembler.push(event);
        if (out?.type === "done" || out?.type === "incomplete") return { ended: out };
        if (out?.type === "error") return { failed: out.error, partial: assembler.partial() };
        if (out) yield out;
      }
    } catch (err) {
      if (!signal.aborted && !idle.fired) failure = sdkErrorToModelError(err, loaded, started, client.baseURL);
    } finally {
      idle.stop();
      reached ||= started || failure?.status !== undefined;
    }
    const partial = assembler.partial();
    if (signal.aborted) return { ended: { type: "error", error: { message: "aborted", retryable: false }, partial } };
    if (idle.fired) return { failed: { message: `${(idle.signal.reason as Error).message} (--idle-timeout)`, retryable: true, fault: "dropped" }, partial };
    return { failed: failure ?? { message: CUT, retryable: true, fault: "dropped" }, partial };
  }
}

async function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
