/**
 * A local stand-in for the Responses API that is as strict as the real one: same rules and error
 * texts, same SSE event order, ids, usage and prompt-cache accounting. Scripted models decide each
 * answer from the request alone, so an agent that drops history visibly repeats work.
 */
import { randomBytes } from "node:crypto";
import { checkInput, type ApiError, type IssuedItems } from "./check-input.ts";
import { isReasoningModel } from "./check-params.ts";
import { formatBreach } from "./check-text-format.ts";
import * as errors from "./api-errors.ts";
import { cachedTokens, estimateInputTokens, promptKey } from "./prompt-tokens.ts";
import { QUOTA_MESSAGE, untilGone, type Fault } from "./faults.ts";
import { newId, renderItems, renderTurn, type StreamEvent } from "./render-turn.ts";
import { responseObject, type Usage } from "./response-object.ts";
import { sseStream, type StreamPlan } from "./sse-writer.ts";
import { echoModel } from "./scripts.ts";
import type { ScriptedModel, Turn } from "./turn.ts";

export type { Fault } from "./faults.ts";

export type StrictServerOptions = {
  /** Scripted models by request `model`. */
  models?: Record<string, ScriptedModel>;
  /** For any other model name; default echoes the last user text; null → model_not_found. */
  defaultModel?: ScriptedModel | null;
  /** Context window in tokens per model (unlisted: unlimited). */
  windows?: Record<string, number>;
  /** Report an over-window input as an in-stream `error` after HTTP 200 instead of a 400. */
  contextErrorInStream?: boolean;
  /** Milliseconds between streamed events. */
  paceMs?: number;
  /** What `GET /v1/models` lists; default LISTED_MODELS and the scripted models' names. */
  listedModels?: readonly string[];
  /**
   * Stand in for a compatible server that takes a strict `text.format` but does not hold its answers
   * to it. Otherwise an answer outside the format is a broken script (500): the API cannot write one.
   */
  unenforcedFormats?: boolean;
  /** The loopback port to listen on; default any free one. */
  port?: number;
};

/** Models the stand-in lists by default, as the real endpoint names them. */
export const LISTED_MODELS = ["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1", "gpt-4.1-mini", "gpt-4o", "o3", "o4-mini"];

export type RecordedRequest = {
  method: string;
  path: string;
  /** The exact body bytes as text. */
  raw: string;
  /** The parsed body, undefined when it was not JSON. */
  body: any;
  status: number;
  headers: Record<string, string>;
  /** When it arrived (performance.now()), to measure the backoff between retries. */
  at: number;
};

export type StrictServer = {
  /** Base URL for the SDK, ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  /** Responses answered with HTTP 200. */
  readonly calls: number;
  /** Ids this server handed out under store:true, as check-input sees them. */
  issued: IssuedItems;
  inject(...faults: Fault[]): void;
  /** Drops the faults not yet served (a run stopped early leaves some). */
  clearFaults(): void;
  stop(): Promise<void>;
};

export async function startStrictServer(opts: StrictServerOptions = {}): Promise<StrictServer> {
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const issued: IssuedItems = new Map();
  const lastPrompt = new Map<string, string>();
  const defaultModel = opts.defaultModel === undefined ? echoModel : opts.defaultModel;
  let calls = 0;

  async function handle(req: Request): Promise<Response> {
    const at = performance.now();
    const url = new URL(req.url);
    const raw = await req.text();
    const record: RecordedRequest = {
      method: req.method,
      path: url.pathname,
      raw,
      body: parseBody(raw),
      status: 0,
      headers: Object.fromEntries(req.headers),
      at,
    };
    requests.push(record);
    const fail = (error: ApiError, headers: Record<string, string> = {}) => {
      record.status = error.status;
      return Response.json(error.body, { status: error.status, headers: { "x-request-id": requestId(), ...headers } });
    };

    const models = url.pathname === "/v1/models" || url.pathname.startsWith("/v1/models/");
    if (!(req.method === "POST" && url.pathname === "/v1/responses") && !(req.method === "GET" && models)) return fail(errors.invalidUrl(req.method, url.pathname));
    if (!/^Bearer \S+/.test(req.headers.get("authorization") ?? "")) return fail(errors.missingApiKey());
    if (models) {
      // As the API answers: the list, or one model (404 for a name it does not have).
      const listed = opts.listedModels ?? [...new Set([...LISTED_MODELS, ...Object.keys(opts.models ?? {})])];
      const id = decodeURIComponent(url.pathname.slice("/v1/models/".length));
      if (id && !listed.includes(id)) return fail(errors.noSuchModel(id));
      record.status = 200;
      const headers = { "x-request-id": requestId() };
      return Response.json(id ? modelObject(id) : { object: "list", data: listed.map(modelObject) }, { headers });
    }

    const fault = faults.shift();
    if (fault && "status" in fault) {
      const model = String(record.body?.model ?? "gpt-5");
      const retry: Record<string, string> = {
        ...(fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) }),
        ...(fault.retryAfterMs === undefined ? {} : { "retry-after-ms": String(fault.retryAfterMs) }),
      };
      if (fault.status === 429) return fail(fault.quota ? errors.quotaExceeded(QUOTA_MESSAGE) : errors.rateLimited(model, fault.retryAfter), retry);
      return fail(errors.serverError(fault.status), retry);
    }
    if (fault && "delayMs" in fault && fault.afterEventCount === undefined) await Bun.sleep(fault.delayMs);
    if (fault && "hang" in fault && fault.afterEventCount === undefined) {
      await untilGone(req.signal);
      return new Response(null, { status: 499 });
    }

    const body = record.body;
    if (!body || typeof body !== "object" || Array.isArray(body)) return fail(errors.invalidJson());
    const broken = checkInput(body, issued);
    if (broken) return fail(broken);
    const scripted = opts.models?.[body.model] ?? defaultModel;
    if (!scripted) return fail(errors.modelNotFound(body.model));

    const responseId = newId("resp");
    const createdAt = Math.floor(Date.now() / 1000);
    const inputTokens = estimateInputTokens(body);
    const window = opts.windows?.[body.model];
    if (window !== undefined && inputTokens > window) {
      if (!opts.contextErrorInStream || body.stream !== true) return fail(errors.contextTooLong());
      const tooLong = { type: "invalid_request_error", code: "context_length_exceeded", message: errors.CONTEXT_TOO_LONG_MESSAGE, param: "input" };
      return stream(record, failedEvents(responseId, createdAt, body, [], tooLong), {});
    }

    let turn: Turn;
    try {
      turn = await scripted({ model: body.model, instructions: body.instructions, input: body.input, tools: body.tools ?? [], body });
    } catch (e) {
      console.error("strict-server: scripted model threw:", e);
      return fail(errors.serverError(500, `scripted model threw: ${e}`));
    }
    const breach = opts.unenforcedFormats || turn.calls?.length || turn.text === undefined ? null : formatBreach(body, turn.text);
    if (breach) {
      console.error("strict-server: scripted model broke the format:", breach);
      return fail(errors.serverError(500, `scripted model broke the format: ${breach}`));
    }

    const rendered = fault && "onlyItems" in fault ? renderItems(fault.onlyItems) : renderTurn(turn, {
      model: body.model,
      reasoningModel: isReasoningModel(body.model),
      withSummary: Boolean(body.reasoning?.summary),
      withEncrypted: Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content"),
    });
    const prompt = promptKey(body);
    const usage: Usage = {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: Math.min(inputTokens, cachedTokens(lastPrompt.get(body.model), prompt)) },
      output_tokens: rendered.outputTokens,
      output_tokens_details: { reasoning_tokens: rendered.reasoningTokens },
      total_tokens: inputTokens + rendered.outputTokens,
    };
    lastPrompt.set(body.model, prompt);
    const failing = fault !== undefined && "errorEvent" in fault;
    // Items made under store:false are never persisted: sending their ids back must 404.
    if (body.store !== false && !failing) remember(issued, rendered.output);

    const completed = responseObject(responseId, createdAt, body, { status: "completed", output: rendered.output, usage });
    if (body.stream !== true) {
      calls++;
      record.status = 200;
      return Response.json(completed, { headers: { "x-request-id": requestId() } });
    }
    const events: StreamEvent[] = [
      ...openingEvents(responseId, createdAt, body),
      ...rendered.events,
      { type: "response.completed", response: completed },
    ];
    if (failing) {
      const at = Math.max(2, Math.min(fault.afterEventCount ?? 2, events.length - 1));
      const error = { ...errors.IN_STREAM_SERVER_ERROR, ...(fault.code ? { code: fault.code } : {}), ...(fault.message ? { message: fault.message } : {}) };
      return stream(record, failedEvents(responseId, createdAt, body, rendered.events.slice(0, at - 2), error), {});
    }
    if (fault && "incomplete" in fault) {
      const incomplete = responseObject(responseId, createdAt, body, { status: "incomplete", reason: fault.incomplete, output: rendered.output, usage });
      const streamed = rendered.events.slice(0, fault.afterEventCount ?? rendered.events.length);
      return stream(record, [...openingEvents(responseId, createdAt, body), ...streamed, { type: "response.incomplete", response: incomplete }], {});
    }
    const plan: StreamPlan = {};
    if (fault && "cut" in fault) plan.cutAfter = Math.min(fault.cut, events.length - 1);
    if (fault && "reset" in fault) plan.resetAfter = Math.min(fault.reset, events.length - 1);
    if (fault && "delayMs" in fault) Object.assign(plan, { pauseAfter: fault.afterEventCount, pauseMs: fault.delayMs });
    if (fault && "hang" in fault) Object.assign(plan, { hangAfter: fault.afterEventCount, until: untilGone(req.signal) });
    return stream(record, events, plan);
  }

  function stream(record: RecordedRequest, events: StreamEvent[], plan: StreamPlan): Response {
    calls++;
    record.status = 200;
    return new Response(sseStream(events, { paceMs: opts.paceMs, ...plan }), {
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-request-id": requestId() },
    });
  }

  // idleTimeout 0: a delay fault may hold a connection open longer than Bun's 10 s default.
  const server = Bun.serve({ port: opts.port ?? 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: handle });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    get calls() {
      return calls;
    },
    issued,
    inject: (...more) => void faults.push(...more),
    clearFaults: () => void faults.splice(0),
    stop: () => server.stop(true),
  };
}

// A fixed creation time: the real one is when the model was published.
const modelObject = (id: string) => ({ id, object: "model", created: 1_744_316_542, owned_by: "system" });

const requestId = () => `req_${randomBytes(16).toString("hex")}`;

function parseBody(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

const openingEvents = (id: string, createdAt: number, body: any): StreamEvent[] => [
  { type: "response.created", response: responseObject(id, createdAt, body, { status: "in_progress" }) },
  { type: "response.in_progress", response: responseObject(id, createdAt, body, { status: "in_progress" }) },
];

/** As recorded: the error's fields nested under `error`, then response.failed carrying code and message. */
function failedEvents(id: string, createdAt: number, body: any, partial: StreamEvent[], error: { type: string; code: string; message: string; param: string | null }): StreamEvent[] {
  return [
    ...openingEvents(id, createdAt, body),
    ...partial,
    { type: "error", error },
    { type: "response.failed", response: responseObject(id, createdAt, body, { status: "failed", error: { code: error.code, message: error.message } }) },
  ];
}

/** Records output item ids the way the API links them: each msg_/fc_ to the reasoning item before it. */
function remember(issued: IssuedItems, output: Record<string, any>[]) {
  let reasoningId: string | undefined;
  for (const item of output) {
    if (item.type === "reasoning") {
      reasoningId = item.id;
      issued.set(item.id, { type: "reasoning" });
    } else issued.set(item.id, { type: item.type, reasoningId });
  }
}
