import { isNotification, isRequest, readMessage, rpcFailure, rpcNotification, rpcRequest, rpcResult, type RpcId } from "../mcp/json-rpc.ts";
import { readLines } from "../mcp/read-lines.ts";

/** JSON-RPC's error codes as ACP uses them (`notFound`: a session id no one knows). */
export const RPC = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603, notFound: -32002 } as const;

/** An error answered to the client with its code, its message one line naming what was wrong. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type Params = Record<string, unknown>;

/** What the editor asks of shiro: each request answered with its result or its error; notifications answered by nothing. */
export type Handlers = {
  request(method: string, params: Params): Promise<unknown>;
  notification(method: string, params: Params): void;
};

/** The editor's side, as shiro calls it: requests matched to their answers by id. */
export type ClientPeer = {
  request(method: string, params: Params): Promise<unknown>;
  notify(method: string, params: Params): void;
};

/** An image in a prompt is base64: a line may be large, but never unbounded. */
const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * JSON-RPC 2.0 over newline-delimited JSON: one message a line read from `input`, each written with
 * `write`. Requests are handled at once and side by side (a `session/cancel` arrives while its
 * `session/prompt` still runs). `done` settles when the input ends; what shiro still waits on is refused then.
 */
export function servePeer<H extends Handlers>(input: ReadableStream<Uint8Array>, write: (line: string) => void, serve: (peer: ClientPeer) => H): { handlers: H; done: Promise<void> } {
  const send = (message: object) => write(JSON.stringify(message) + "\n");
  // A line that is no request has no id to answer: JSON-RPC answers it with a null one.
  const refuse = (code: number, message: string) => send({ jsonrpc: "2.0", id: null, error: { code, message } });
  const pending = new Map<RpcId, { resolve(result: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let ended = false;
  const answer = (id: RpcId, work: Promise<unknown>) =>
    work.then(
      (result) => send(rpcResult(id, result ?? null)),
      (err: unknown) => send(rpcFailure(id, err instanceof RpcError ? { code: err.code, message: err.message } : { code: RPC.internal, message: (err as Error)?.message ?? String(err) })),
    );
  const onLine = (line: string, tooLong: boolean) => {
    if (line.trim() === "") return;
    if (tooLong) return refuse(RPC.invalidRequest, `a message longer than ${MAX_LINE_CHARS} characters was dropped`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return refuse(RPC.parse, "a line that is not JSON was dropped");
    }
    const read = readMessage(value);
    if (!read.ok) return refuse(RPC.invalidRequest, read.why);
    const message = read.message;
    if (isRequest(message)) return void answer(message.id, Promise.resolve().then(() => handlers.request(message.method, message.params ?? {})));
    if (isNotification(message)) return handlers.notification(message.method, message.params ?? {});
    const waiting = message.id === null ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    if (message.error) waiting.reject(new RpcError(message.error.code, message.error.message));
    else waiting.resolve(message.result);
  };
  const peer: ClientPeer = {
    request(method, params) {
      if (ended) return Promise.reject(new Error("the editor closed the connection"));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send(rpcRequest(id, method, params));
      });
    },
    notify: (method, params) => send(rpcNotification(method, params)),
  };
  const handlers = serve(peer);
  const done = readLines(input, onLine, MAX_LINE_CHARS).finally(() => {
    ended = true;
    for (const waiting of pending.values()) waiting.reject(new Error("the editor closed the connection"));
    pending.clear();
  });
  return { handlers, done };
}
