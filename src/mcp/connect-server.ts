import { clipLine } from "../text/one-line.ts";
import { startHttpTransport } from "./http-transport.ts";
import { initializeClient, type McpClient } from "./mcp-client.ts";
import { McpError } from "./mcp-error.ts";
import type { McpServerDef } from "./mcp-types.ts";
import { startStdioTransport } from "./stdio-transport.ts";
import type { Transport, TransportEvents } from "./transport.ts";

export type ConnectOptions = {
  /** initialize and the tool list must be done within this long. */
  startupTimeoutMs: number;
  /** Aborting gives up on the start-up (the server is shut down). */
  signal?: AbortSignal;
};

/** The last few lines of a server's stderr on one line, to end an error with. */
function stderrEnding(tail: string): string {
  const lines = tail.split("\n").filter((line) => line.trim());
  return lines.length ? `; its stderr ends: ${clipLine(lines.slice(-3).join(" | "), 300)}` : "";
}

/** Why start-up failed, after `MCP server "<name>" did not start: `. */
function why(err: unknown, lostBecause: string | undefined, timedOut: boolean, timeoutMs: number): string {
  if (!(err instanceof McpError)) return String(err);
  // Which request it was, when the error knows (a request's timeout does; a transport's cut does not).
  const method = err.method;
  switch (err.kind) {
    case "cancelled":
      if (!timedOut) return "start-up was cancelled";
      return method ? `no answer to ${method} within ${timeoutMs / 1000} s` : `not ready within ${timeoutMs / 1000} s`;
    case "closed":
      return lostBecause ? `it ${lostBecause}` : err.message;
    case "rpc":
      return `${method ?? "initialize"} failed: ${clipLine(err.message, 200)} (code ${err.code})`;
    default:
      return err.message;
  }
}

/**
 * Starts or reaches the server `def` describes and completes the handshake within the start-up time.
 * Resolves to a ready client; rejects with one McpError (`startup`) whose message is one line naming
 * the server, what went wrong and, for a stdio server, the end of its stderr. Never hangs: a server that
 * does not answer is shut down when the time is up.
 */
export async function connectMcpServer(name: string, def: McpServerDef, opts: ConnectOptions): Promise<McpClient> {
  const timeout = AbortSignal.timeout(opts.startupTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  let transport: Transport | undefined;
  let lostBecause: string | undefined;
  const open = (events: TransportEvents) => {
    const watched = { ...events, onClose: (reason: string) => ((lostBecause ??= reason), events.onClose(reason)) };
    transport = def.kind === "stdio" ? startStdioTransport(def, watched) : startHttpTransport(def, watched);
    return transport;
  };
  try {
    return await initializeClient(name, open, signal);
  } catch (err) {
    const timedOut = timeout.aborted && !opts.signal?.aborted;
    throw new McpError("startup", `MCP server "${name}" did not start: ${why(err, lostBecause, timedOut, opts.startupTimeoutMs)}${stderrEnding(transport?.stderrTail() ?? "")}`);
  }
}
