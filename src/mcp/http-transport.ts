import { clipLine } from "../text/one-line.ts";
import { isRequest, isResponse, readMessages, type RpcId, type RpcMessage } from "./json-rpc.ts";
import { McpError } from "./mcp-error.ts";
import { readSse, type SseEvent } from "./sse-reader.ts";
import type { Transport, TransportEvents } from "./transport.ts";

export type HttpDef = { url: string; headers: Record<string, string> };

// Until a stream names its own `retry`, how long to wait before resuming it.
const DEFAULT_RETRY_MS = 1000;
// Resumptions in a row that bring nothing new before a stream is given up.
const MAX_IDLE_RESUMES = 5;
const DELETE_TIMEOUT_MS = 2000;

/**
 * Streamable HTTP (MCP 2025-06-18 and 2025-11-25): every message POSTed; a request's answer comes as
 * JSON or as an event stream, which is resumed with GET and `Last-Event-ID` after its `retry` when it
 * drops before the answer. The session id the server hands out and the negotiated protocol version go
 * on every later request; a 404 on a session means it expired: one new handshake (the initialize and
 * initialized this transport saw) and the message again. Header values are sent, never shown.
 */
export function startHttpTransport(def: HttpDef, events: TransportEvents): Transport {
  const stop = new AbortController();
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let handshake: RpcMessage[] = [];
  let renewing: Promise<void> | undefined;
  let listening = false;

  const headers = (extra: Record<string, string>, initialize = false) => ({
    ...def.headers,
    ...(sessionId !== undefined && { "mcp-session-id": sessionId }),
    ...(protocolVersion !== undefined && !initialize && { "mcp-protocol-version": protocolVersion }),
    ...extra,
  });
  const reach = async (init: RequestInit, signal?: AbortSignal): Promise<Response> => {
    try {
      const res = await fetch(def.url, { ...init, signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal });
      sessionId = res.headers.get("mcp-session-id") ?? sessionId;
      return res;
    } catch (err) {
      if (stop.signal.aborted) throw new McpError("closed", "the connection was closed");
      if (signal?.aborted) throw new McpError("cancelled", "the request was cancelled");
      throw new McpError("closed", `could not reach ${def.url}: ${clipLine((err as Error).message, 200)}`);
    }
  };
  const failed = async (res: Response) => {
    const text = clipLine(await res.text().catch(() => ""), 200);
    return new McpError("http", `${def.url} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${text ? `: ${text}` : ""}`, res.status);
  };
  // Delivers an event's messages; true once the answer to `waiting` was among them.
  const take = (event: SseEvent, waiting?: RpcId): boolean => {
    if (!event.data.trim()) return false;
    const read = readMessages(event.data);
    if (!read.ok) throw new McpError("protocol", `the event stream carried something else than JSON-RPC: ${read.why}`);
    let answered = false;
    for (const message of read.messages) {
      events.onMessage(message);
      answered ||= isResponse(message) && message.id === waiting;
    }
    return answered;
  };

  /**
   * Reads an event stream until the answer to `waiting` (or, for the standalone stream, until closed).
   * Each drop is resumed with GET + Last-Event-ID after the stream's retry delay, if it gave an event id.
   */
  const follow = async (first: Response, waiting: RpcId | undefined, signal?: AbortSignal): Promise<void> => {
    let res = first;
    let lastId: string | undefined;
    let retryMs = DEFAULT_RETRY_MS;
    for (let idle = 0; ; ) {
      let news = false;
      try {
        for await (const event of readSse(res.body!)) {
          lastId = event.id ?? lastId;
          retryMs = event.retry ?? retryMs;
          news ||= !!event.data.trim();
          if (take(event, waiting)) return;
        }
      } catch (err) {
        if (err instanceof McpError) throw err;
        // A dropped connection: resumed below like a stream the server ended.
      }
      if (stop.signal.aborted || signal?.aborted) throw new McpError("cancelled", "the request was cancelled");
      if (lastId === undefined) {
        if (waiting === undefined) return;
        throw new McpError("closed", "the server ended its event stream without an answer (and gave no event id to resume from)");
      }
      idle = news ? 0 : idle + 1;
      if (idle > MAX_IDLE_RESUMES) throw new McpError("closed", `the event stream was resumed ${MAX_IDLE_RESUMES} times without bringing anything`);
      await Bun.sleep(retryMs);
      res = await reach({ method: "GET", headers: headers({ accept: "text/event-stream", "last-event-id": lastId }) }, signal);
      if (!res.ok || !res.headers.get("content-type")?.includes("text/event-stream")) {
        if (waiting === undefined) return;
        throw res.ok ? new McpError("protocol", "resuming the event stream brought no event stream") : await failed(res);
      }
    }
  };

  // The session expired: start a new one with the handshake this transport carried (its answers go to
  // the client, which ignores answers to requests it no longer waits for).
  const renew = (expired: string) =>
    (renewing ??= (async () => {
      if (sessionId === expired) sessionId = undefined;
      for (const message of handshake) await post(message, undefined, true);
    })().finally(() => (renewing = undefined)));

  const post = async (message: RpcMessage, signal?: AbortSignal, renewal = false): Promise<void> => {
    const initialize = "method" in message && message.method === "initialize";
    if (initialize || ("method" in message && message.method === "notifications/initialized")) {
      if (!renewal) handshake = initialize ? [message] : [...handshake, message];
    }
    const sent = sessionId;
    const res = await reach(
      { method: "POST", headers: headers({ "content-type": "application/json", accept: "application/json, text/event-stream" }, initialize), body: JSON.stringify(message) },
      signal,
    );
    if (res.status === 404 && sent !== undefined && !initialize && !renewal) {
      await res.body?.cancel();
      await renew(sent).catch((err: McpError) => {
        events.onClose(`lost its session and could not start a new one: ${err.message}`);
        throw err;
      });
      return post(message, signal, true);
    }
    if (!res.ok) throw await failed(res);
    if (!isRequest(message)) return void (await res.body?.cancel());
    const type = res.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) return follow(res, message.id, signal);
    if (!type.includes("application/json")) throw new McpError("protocol", `${message.method} was answered with ${type || "no content type"}, not JSON or an event stream`);
    const read = readMessages(await res.text());
    if (!read.ok) throw new McpError("protocol", `${message.method} was answered with ${read.why}`);
    for (const one of read.messages) events.onMessage(one);
    if (!read.messages.some((one) => isResponse(one) && one.id === message.id)) throw new McpError("protocol", `the answer to ${message.method} did not carry its id`);
  };

  // The optional stream of what the server sends unasked; 400, 405 and the like mean it offers none.
  const listen = async () => {
    const res = await reach({ method: "GET", headers: headers({ accept: "text/event-stream" }) });
    if (!res.ok || !res.headers.get("content-type")?.includes("text/event-stream")) return void (await res.body?.cancel());
    await follow(res, undefined);
  };

  let closing: Promise<void> | undefined;
  return {
    send: (message, signal) => post(message, signal),
    setProtocolVersion: (version) => void (protocolVersion = version),
    listen() {
      if (listening) return;
      listening = true;
      listen().catch(() => {});
    },
    stderrTail: () => "",
    close: () =>
      (closing ??= (async () => {
        stop.abort();
        if (sessionId === undefined) return;
        // The spec asks a client to end its session; a server that does not (405) or cannot is fine.
        await fetch(def.url, { method: "DELETE", headers: headers({}), signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) })
          .then((res) => res.body?.cancel())
          .catch(() => {});
      })()),
  };
}
