import type { RpcMessage } from "./json-rpc.ts";

/**
 * One connection to a server, carrying JSON-RPC messages both ways. `send` resolves once the transport
 * is done with the message (stdio: written; HTTP: posted, and for a request its answer delivered) and
 * rejects with an McpError when it could not be. Whatever arrives goes to `onMessage`; the end of the
 * connection, whoever caused it, goes once to `onClose` with the reason in words.
 */
export type Transport = {
  send(message: RpcMessage, signal?: AbortSignal): Promise<void>;
  /** The protocol version the handshake settled on (HTTP sends it as a header from then on). */
  setProtocolVersion(version: string): void;
  /** Starts listening for what the server sends unasked (HTTP: the optional GET stream); stdio always listens. */
  listen(): void;
  stderrTail(): string;
  readonly pid?: number;
  close(): Promise<void>;
};

export type TransportEvents = {
  onMessage(message: RpcMessage): void;
  onClose(reason: string): void;
};
