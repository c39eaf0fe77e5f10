/**
 * Why an MCP exchange failed, for the caller to act on: `rpc` is the server's own JSON-RPC error (with
 * its code and data), `timeout` and `cancelled` end a call we gave up on, `closed` means the server or
 * its connection is gone, `protocol` a message that breaks the protocol, `http` an HTTP error status
 * (in `code`), `startup` a server that never became ready. The message is one line, fit to show.
 */
export type McpErrorKind = "rpc" | "timeout" | "cancelled" | "closed" | "protocol" | "http" | "startup";

export class McpError extends Error {
  constructor(
    readonly kind: McpErrorKind,
    message: string,
    /** `rpc`: the JSON-RPC error code (-32601 and such); `http`: the status. */
    readonly code?: number,
    readonly data?: unknown,
    /** The request it ended, when it ended one. */
    readonly method?: string,
  ) {
    super(message);
    this.name = "McpError";
  }
}

/** JSON-RPC error codes this client sends or reads. */
export const METHOD_NOT_FOUND = -32601;
export const REQUEST_TIMEOUT = -32001;
