import { z } from "zod";
import { isNotification, isRequest, rpcFailure, rpcNotification, rpcRequest, rpcResult, type RpcId, type RpcMessage, type RpcRequest } from "./json-rpc.ts";
import { McpError, METHOD_NOT_FOUND, REQUEST_TIMEOUT } from "./mcp-error.ts";
import type { Transport, TransportEvents } from "./transport.ts";

export type RequestOptions = {
  signal?: AbortSignal;
  /** Without an answer (or progress) for this long, the request is cancelled. */
  timeoutMs?: number;
  /** Progress restarts the timeout, but never past this long after the request was sent (asks for progress). */
  maxTimeoutMs?: number;
  /** Asks the server for progress (a `_meta.progressToken`) and hears it. */
  onProgress?: (progress: number, total?: number, message?: string) => void;
};

type Pending = { method: string; resolve(result: unknown): void; reject(error: McpError): void; progress(progress: number, total?: number, message?: string): void };

export type PeerHandlers = {
  /** A notification from the server other than progress. */
  notification(method: string, params: Record<string, unknown>): void;
  /** The connection ended by itself (not by close()). */
  closed(reason: string): void;
};

const progressParams = z.looseObject({ progressToken: z.union([z.string(), z.number()]), progress: z.number(), total: z.number().optional(), message: z.string().optional() });

/** Why an aborted request was cancelled, in words for the server's `notifications/cancelled`. */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === "string") return reason;
  return reason instanceof Error && reason.name !== "AbortError" && reason.name !== "TimeoutError" ? reason.message : "cancelled by the client";
}

/**
 * The JSON-RPC side of a connection: numbered requests matched to their answers, timeouts, progress
 * and cancellation (`notifications/cancelled`, as the spec asks), and the server's own requests
 * answered (`ping`; anything else is method-not-found, since the client offers no capabilities).
 */
export class RpcPeer {
  readonly transport: Transport;
  private nextId = 1;
  private readonly pending = new Map<RpcId, Pending>();
  private ended: string | undefined;
  private closing = false;

  constructor(open: (events: TransportEvents) => Transport, private readonly handlers: PeerHandlers) {
    this.transport = open({ onMessage: (m) => this.deliver(m), onClose: (reason) => this.lost(reason) });
  }

  request(method: string, params: Record<string, unknown> = {}, opts: RequestOptions = {}): Promise<unknown> {
    if (this.ended !== undefined) return Promise.reject(new McpError("closed", `the server ${this.ended}`));
    if (opts.signal?.aborted) return Promise.reject(new McpError("cancelled", `${method} was cancelled: ${abortReason(opts.signal)}`, undefined, undefined, method));
    const id = this.nextId++;
    // Progress is asked for when someone hears it or it may extend the timeout.
    const sent = opts.onProgress || opts.maxTimeoutMs !== undefined ? { ...params, _meta: { ...(params._meta as object | undefined), progressToken: id } } : params;
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const cut = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        this.pending.delete(id);
      };
      // The spec: a request given up on is cancelled by notification, never initialize.
      const giveUp = (error: McpError, reason: string) => {
        if (!this.pending.has(id)) return;
        settle();
        reject(error);
        cut.abort();
        if (method !== "initialize") this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
      };
      const arm = () => {
        if (opts.timeoutMs === undefined) return;
        const left = opts.maxTimeoutMs === undefined ? opts.timeoutMs : Math.min(opts.timeoutMs, started + opts.maxTimeoutMs - Date.now());
        timer = setTimeout(() => {
          const seconds = Math.round((Date.now() - started) / 100) / 10;
          giveUp(new McpError("timeout", `${method} got no answer within ${seconds} s`, REQUEST_TIMEOUT, undefined, method), `timed out after ${seconds} s`);
        }, Math.max(0, left));
      };
      const onAbort = () => giveUp(new McpError("cancelled", `${method} was cancelled: ${abortReason(opts.signal!)}`, undefined, undefined, method), abortReason(opts.signal!));
      this.pending.set(id, {
        method,
        resolve: (result) => (settle(), resolve(result)),
        reject: (error) => (settle(), reject(error)),
        progress: (progress, total, message) => {
          opts.onProgress?.(progress, total, message);
          clearTimeout(timer);
          arm();
        },
      });
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      arm();
      this.transport.send(rpcRequest(id, method, sent), cut.signal).catch((err: unknown) => {
        if (!cut.signal.aborted) this.pending.get(id)?.reject(err instanceof McpError ? err : new McpError("closed", String(err)));
      });
    });
  }

  notify(method: string, params?: Record<string, unknown>, signal?: AbortSignal): Promise<void> {
    return this.transport.send(rpcNotification(method, params), signal);
  }

  /** Ends the connection; what is still waiting is rejected. Idempotent. */
  close(): Promise<void> {
    this.closing = true;
    this.fail("was closed");
    return this.transport.close();
  }

  private lost(reason: string): void {
    this.fail(reason);
    if (!this.closing) this.handlers.closed(reason);
  }

  private fail(reason: string): void {
    this.ended ??= reason;
    for (const pending of [...this.pending.values()]) pending.reject(new McpError("closed", `the server ${this.ended}`));
  }

  private deliver(message: RpcMessage): void {
    if (isRequest(message)) return void this.answer(message);
    if (isNotification(message)) {
      if (message.method !== "notifications/progress") return this.handlers.notification(message.method, message.params ?? {});
      const progress = progressParams.safeParse(message.params);
      if (progress.success) this.pending.get(progress.data.progressToken)?.progress(progress.data.progress, progress.data.total, progress.data.message);
      return;
    }
    // An answer to a request already given up on (cancelled, timed out) is dropped.
    const pending = message.id === null ? undefined : this.pending.get(message.id);
    if (!pending) return;
    if (message.error) pending.reject(new McpError("rpc", message.error.message, message.error.code, message.error.data, pending.method));
    else pending.resolve(message.result);
  }

  private async answer(request: RpcRequest): Promise<void> {
    const reply = request.method === "ping" ? rpcResult(request.id, {}) : rpcFailure(request.id, { code: METHOD_NOT_FOUND, message: `Method not found: ${request.method}` });
    await this.transport.send(reply).catch(() => {});
  }
}
