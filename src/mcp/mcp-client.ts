import { clipLine } from "../text/one-line.ts";
import { VERSION } from "../version.ts";
import { McpError } from "./mcp-error.ts";
import { callResult, initializeResult, toolsPage, type McpCallResult, type McpServerInfo, type McpToolInfo } from "./mcp-types.ts";
import { RpcPeer, type RequestOptions } from "./rpc-peer.ts";
import type { Transport, TransportEvents } from "./transport.ts";

/** The newest protocol version this client speaks, and every version it accepts from a server. */
export const PROTOCOL_VERSION = "2025-11-25";
export const ACCEPTED_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];

// A server whose cursors never end (or repeat) is stopped here rather than listed forever.
const MAX_PAGES = 100;
// A listing after `list_changed` that takes longer is given up (the old list stays): a call waiting on it is not held longer.
const RELIST_TIMEOUT_MS = 5_000;

export type CallOptions = RequestOptions;

/** A server past its handshake: its tools listed, ready for calls. */
export type McpClient = {
  readonly name: string;
  readonly protocolVersion: string;
  readonly serverInfo: McpServerInfo;
  /** What the server said it offers (`tools.listChanged`, `logging`, …), as sent. */
  readonly capabilities: Record<string, unknown>;
  readonly instructions?: string;
  /** A stdio server's process (the leader of its process group). */
  readonly pid?: number;
  tools(): readonly McpToolInfo[];
  /** Called after the tool list was fetched again on the server's `notifications/tools/list_changed`. */
  onToolsChanged(cb: () => void): void;
  callTool(name: string, args: Record<string, unknown>, opts?: CallOptions): Promise<McpCallResult>;
  ping(opts?: CallOptions): Promise<void>;
  stderrTail(): string;
  /** Called once if the connection ends by itself (an exit, a lost session); not after close(). */
  onClose(cb: (reason: string) => void): void;
  close(): Promise<void>;
};

/**
 * The handshake on a fresh transport: `initialize` (our newest version, no capabilities — this
 * client implements no sampling, roots or elicitation), the version check, `notifications/initialized`,
 * then every page of `tools/list`. Rejects with an McpError, and shuts the connection down meanwhile.
 */
export async function initializeClient(name: string, open: (events: TransportEvents) => Transport, signal?: AbortSignal): Promise<McpClient> {
  let tools: McpToolInfo[] = [];
  const changed: (() => void)[] = [];
  const closed: ((reason: string) => void)[] = [];
  let listing: Promise<void> | undefined;
  let relist = false;
  const peer = new RpcPeer(open, {
    notification(method) {
      if (method === "notifications/tools/list_changed") refresh();
    },
    closed: (reason) => closed.splice(0).forEach((cb) => cb(reason)),
  });

  const listTools = async (opts: RequestOptions = {}) => {
    const all: McpToolInfo[] = [];
    const seen = new Set<string>();
    for (let cursor: string | undefined, page = 0; ; page++) {
      if (page === MAX_PAGES) throw new McpError("protocol", `tools/list went on past ${MAX_PAGES} pages`);
      const parsed = toolsPage.safeParse(await peer.request("tools/list", cursor === undefined ? {} : { cursor }, opts));
      if (!parsed.success) throw new McpError("protocol", `tools/list answered something else than a list of tools: ${parsed.error.issues[0]?.message ?? ""}`);
      all.push(...parsed.data.tools);
      cursor = parsed.data.nextCursor;
      if (cursor === undefined) return all;
      if (seen.has(cursor)) throw new McpError("protocol", `tools/list gave the cursor ${JSON.stringify(cursor)} twice`);
      seen.add(cursor);
    }
  };
  // One listing at a time; a change announced during one lists again after it. A failed refresh keeps the old list.
  const refresh = (): void => {
    if (listing) return void (relist = true);
    listing = (async () => {
      do {
        relist = false;
        try {
          tools = await listTools({ timeoutMs: RELIST_TIMEOUT_MS });
          for (const cb of changed) cb();
        } catch {
          // The old list stays; the next change announced lists again.
        }
      } while (relist);
    })().finally(() => (listing = undefined));
  };
  const handshake = async () => {
    const answer = await peer.request("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "shiro", version: VERSION } }, { signal });
    const parsed = initializeResult.safeParse(answer);
    if (!parsed.success) throw new McpError("protocol", `initialize answered something else than an InitializeResult: ${parsed.error.issues[0]?.message ?? ""}`);
    const version = parsed.data.protocolVersion;
    if (!ACCEPTED_VERSIONS.includes(version))
      throw new McpError("protocol", `the server speaks MCP ${version}, and shiro speaks ${PROTOCOL_VERSION} (or ${ACCEPTED_VERSIONS.slice(1).join(", ")})`);
    peer.transport.setProtocolVersion(version);
    await peer.notify("notifications/initialized", undefined, signal);
    tools = await listTools({ signal });
    // Unasked messages over HTTP need the standalone stream; only a server that announces tool changes gets one.
    const toolCaps = parsed.data.capabilities.tools as { listChanged?: unknown } | undefined;
    if (toolCaps?.listChanged) peer.transport.listen();
    return parsed.data;
  };
  let init;
  try {
    init = await handshake();
  } catch (err) {
    // Not awaited: the caller hears of the failure now, the server's processes go meanwhile.
    void peer.close();
    throw err instanceof McpError ? err : new McpError("protocol", String(err));
  }

  return {
    name,
    protocolVersion: init.protocolVersion,
    // Shown in /mcp, `shiro mcp list` and the log: one plain line each, whatever the server sent.
    serverInfo: { name: clipLine(init.serverInfo.name, 100), ...(init.serverInfo.version !== undefined && { version: clipLine(init.serverInfo.version, 40) }) },
    capabilities: init.capabilities,
    ...(init.instructions !== undefined && { instructions: init.instructions }),
    ...(peer.transport.pid !== undefined && { pid: peer.transport.pid }),
    tools: () => tools,
    onToolsChanged: (cb) => void changed.push(cb),
    async callTool(tool, args, opts = {}) {
      const answer = await peer.request("tools/call", { name: tool, arguments: args }, opts);
      // A change the call caused is announced before its answer: the next request carries the new list.
      if (listing) await listing;
      const result = callResult.safeParse(answer);
      if (!result.success) throw new McpError("protocol", `tools/call answered something else than a tool result: ${result.error.issues[0]?.message ?? ""}`);
      return result.data;
    },
    async ping(opts = {}) {
      await peer.request("ping", {}, opts);
    },
    stderrTail: () => peer.transport.stderrTail(),
    onClose: (cb) => void closed.push(cb),
    close: () => peer.close(),
  };
}
