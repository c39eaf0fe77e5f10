import type { EventOf } from "../session/session-event.ts";
import { definitionHash } from "../store/approvals.ts";
import { clipLine } from "../text/one-line.ts";
import type { AnyTool } from "../tools/tool.ts";
import { toolSchema } from "../wire/tool-schema.ts";
import type { McpError } from "./mcp-error.ts";
import type { McpClient } from "./mcp-client.ts";
import type { McpServerDef } from "./mcp-types.ts";
import { mcpTool } from "./mcp-tool.ts";
import { toolEnabled, type ServerPlan } from "./server-plan.ts";
import { toolNames } from "./tool-names.ts";

/** More tools than this in all and none is offered; more than WARN_TOOLS, a warning. */
export const MAX_TOOLS = 128;
export const WARN_TOOLS = 40;

/** How a server is reached (connect-server.ts; tests may pass another). */
export type Connect = (name: string, def: McpServerDef, opts: { startupTimeoutMs: number; signal?: AbortSignal }) => Promise<McpClient>;

export type ServerStatus = "starting" | "connected" | "failed" | "closed";

/** A server as `/mcp` and `shiro mcp list` show it. */
export type ServerView = { name: string; origin: string; status: ServerStatus; required: boolean; tools: number; listed: number; protocolVersion?: string; serverInfo?: { name: string; version?: string }; error?: string };

/**
 * How a run meets its servers' start-up. `awaited` (print mode, one or two requests): the first model
 * call waits for every server, and a `required` one that did not start stops it. `background` (the
 * REPL, where the person is still typing): only `required` servers hold up the first call, and a
 * failure is a line like any other.
 */
export type Startup = "awaited" | "background";

export type StartOptions = {
  connect: Connect;
  warn: (line: string) => void;
  startup: Startup;
  /**
   * Where each change of a server goes (print mode: a `--json` event), with the line a person reads
   * when it failed or stopped — none when the run's stop says it. Without it, that line is warned.
   */
  report?: (event: EventOf<"mcp">, line: string | undefined) => void;
};

export type McpServers = {
  /**
   * Resolves once the servers the first model call waits for (all of them, or the `required` ones:
   * `Startup`) have connected or failed, with why the run cannot go on: one line for each `required`
   * server that did not start, when start-up is `awaited`.
   */
  ready(signal?: AbortSignal): Promise<string[]>;
  /** Resolves once every server has connected or failed (`shiro mcp list`). */
  settled(): Promise<void>;
  /** The MCP tools offered now, in a stable order. */
  tools(): readonly AnyTool[];
  views(): ServerView[];
  /** Called when the tools offered change: a server came up or went away, its list changed, a tool was dropped. Returns how to stop. */
  onChange(cb: () => void): () => void;
  /** Where `mcp` session events go (those before the first listener, to it at once). Returns how to stop. */
  onEvent(cb: (e: EventOf<"mcp">) => void): () => void;
  /** Each server's newest event, for a session begun later (/clear, /resume). */
  latestEvents(): EventOf<"mcp">[];
  /** Starts one more server (a project's, once approved). */
  add(plan: ServerPlan): void;
  /** The program lines of the stdio servers started (their program, arguments and folder). */
  programs(): { argv: string[]; cwd: string }[];
  /** How long a connected server took to answer a `ping` (given its `startupTimeout`), in ms; rejects with why it did not (`shiro mcp test`). */
  ping(name: string): Promise<number>;
  /** Stops offering a tool the API refused; true when it was one of these. */
  drop(name: string): boolean;
  /** Closes every server (stdin, then SIGTERM, then SIGKILL); never rejects. */
  close(): Promise<void>;
};

type Slot = { plan: ServerPlan; status: ServerStatus; client?: McpClient; error?: string; started: Promise<void> };

/**
 * Starts every server at once. The first model call waits for those `opts.startup` says, each only until
 * it is up or its `startupTimeout` ran out. A failure is one line (with the tail of the server's stderr)
 * and the run goes on without that server — but for a `required` one in an awaited run, which stops.
 * Each change is also an `mcp` session event.
 */
export function startMcpServers(plans: readonly ServerPlan[], opts: StartOptions): McpServers {
  const controller = new AbortController();
  const listeners = new Set<() => void>();
  const dropped = new Set<string>();
  let offered: AnyTool[] = [];
  const serverOf = new Map<string, string>();
  let warnedCount = 0;
  const slots: Slot[] = [];
  const at = () => new Date().toISOString();
  // Events wait for a session to take them; the latest of each server is kept for the next session (/clear).
  const latest = new Map<string, EventOf<"mcp">>();
  const queued: EventOf<"mcp">[] = [];
  const sinks = new Set<(e: EventOf<"mcp">) => void>();
  const event = (e: EventOf<"mcp">) => {
    latest.set(e.server, e);
    if (sinks.size) sinks.forEach((sink) => sink(e));
    else queued.push(e);
  };

  const rebuild = () => {
    // Servers by name, each one's tools as it lists them: the same tools get the same names every run.
    const connected = slots.filter((s) => s.status === "connected" && s.client).sort((a, b) => a.plan.name.localeCompare(b.plan.name));
    const listed = connected.flatMap((s) => s.client!.tools().filter((t) => toolEnabled(s.plan, t.name)).map((info) => ({ slot: s, info })));
    const named = toolNames(listed.map(({ slot, info }) => ({ server: slot.plan.name, tool: info.name })));
    const all = listed.map(({ slot, info }, i) => mcpTool({ name: named[i]!.name, server: slot.plan.name, info, timeoutMs: slot.plan.toolTimeoutMs, maxTimeoutMs: slot.plan.maxToolTimeoutMs }, () => slot.client));
    named.forEach((n) => serverOf.set(n.name, n.server));
    const kept = all.filter((t) => !dropped.has(t.name));
    if (kept.length > MAX_TOOLS) {
      if (warnedCount !== kept.length) opts.warn(tooMany(kept.length, connected));
      offered = [];
    } else {
      if (kept.length > WARN_TOOLS && warnedCount !== kept.length)
        opts.warn(`MCP servers offer ${kept.length} tools; over ${WARN_TOOLS} crowd the model's context (name the ones wanted with "enabledTools" in a server's config)`);
      offered = kept;
    }
    warnedCount = kept.length;
    listeners.forEach((cb) => cb());
  };

  const report = opts.report ?? ((_, line) => line !== undefined && opts.warn(line));
  // `why` says it all in one line: what went wrong and the end of the server's stderr. What that means
  // for this run (`then`) is for the person's line only: `/mcp` and the log keep why.
  const fail = (slot: Slot, status: "failed" | "closed", why: string, then: string | undefined) => {
    slot.status = status;
    slot.error = why;
    slot.client = undefined;
    const e: EventOf<"mcp"> = { type: "mcp", server: slot.plan.name, status, error: why, at: at() };
    event(e);
    report(e, then === undefined ? undefined : `${why}; ${then}`);
  };
  // A required server that did not start stops an awaited run, which says so itself.
  const stops = (slot: Slot) => slot.plan.required && opts.startup === "awaited";

  // What the model is sent of a server's tools: its event names their count and the hash of exactly that.
  const announce = (slot: Slot, client: McpClient) => {
    const sent = offered.filter((t) => serverOf.get(t.name) === slot.plan.name).map(toolSchema);
    const e: EventOf<"mcp"> = { type: "mcp", server: slot.plan.name, status: "connected", protocolVersion: client.protocolVersion, serverInfo: client.serverInfo, tools: sent.length, toolsHash: definitionHash(sent), at: at() };
    // A `list_changed` that changed nothing the model is sent is no news.
    const last = latest.get(e.server);
    if (last?.status === "connected" && last.toolsHash === e.toolsHash) return;
    event(e);
    report(e, undefined);
  };

  const connected = (slot: Slot, client: McpClient) => {
    slot.status = "connected";
    slot.client = client;
    client.onToolsChanged(() => {
      if (slot.client !== client) return;
      rebuild();
      announce(slot, client);
    });
    client.onClose((reason) => {
      if (slot.client !== client) return;
      const tail = client.stderrTail().trim().split("\n").slice(-3).join(" | ");
      fail(slot, "closed", `MCP server "${slot.plan.name}" stopped: ${reason}${tail ? `; its stderr ends: ${clipLine(tail, 300)}` : ""}`, "its tools are gone for this run");
      rebuild();
    });
    rebuild();
    announce(slot, client);
  };

  const start = (plan: ServerPlan) => {
    const slot: Slot = { plan, status: "starting", started: Promise.resolve() };
    slots.push(slot);
    // A plan that cannot start (a variable it names is unset) fails as a server that does not answer would.
    const client = plan.problem !== undefined ? Promise.reject(new Error(plan.problem)) : opts.connect(plan.name, plan.launch, { startupTimeoutMs: plan.startupTimeoutMs, signal: controller.signal });
    slot.started = client.then(
      (client) => (controller.signal.aborted ? void client.close() : connected(slot, client)),
      (err: Error) => {
        if (!controller.signal.aborted) fail(slot, "failed", err?.message ?? String(err), stops(slot) ? undefined : "the run goes on without it");
      },
    );
  };
  plans.forEach(start);

  return {
    async ready(signal) {
      const waited = slots.filter((s) => opts.startup === "awaited" || s.plan.required);
      const all = Promise.all(waited.map((s) => s.started));
      await (signal ? Promise.race([all, new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }))]) : all);
      return waited.filter((s) => s.status === "failed" && stops(s)).map((s) => `${s.error}; it is required ("required": true), so nothing was sent`);
    },
    settled: async () => void (await Promise.all(slots.map((s) => s.started))),
    tools: () => offered,
    add: start,
    programs: () => slots.flatMap(({ plan: { launch, problem } }) => (launch.kind === "stdio" && problem === undefined ? [{ argv: [launch.command, ...launch.args], cwd: launch.cwd }] : [])),
    views: () =>
      slots.map(({ plan, status, client, error }) => ({
        name: plan.name,
        origin: plan.origin,
        status,
        required: plan.required,
        tools: offered.filter((t) => serverOf.get(t.name) === plan.name).length,
        listed: client?.tools().length ?? 0,
        ...(client ? { protocolVersion: client.protocolVersion, serverInfo: client.serverInfo } : {}),
        ...(error !== undefined ? { error } : {}),
      })),
    onChange(cb) {
      listeners.add(cb);
      return () => void listeners.delete(cb);
    },
    onEvent(cb) {
      sinks.add(cb);
      queued.splice(0).forEach(cb);
      return () => void sinks.delete(cb);
    },
    latestEvents: () => [...latest.values()],
    async ping(name) {
      const slot = slots.find((s) => s.plan.name === name);
      const client = slot?.client;
      if (!client) throw new Error(`MCP server "${name}" is not connected`);
      const timeoutMs = slot.plan.startupTimeoutMs;
      const started = performance.now();
      // An error answer is an answer: the server is there and takes requests.
      await client.ping({ timeoutMs }).catch((err: McpError) => {
        if (err.kind !== "rpc") throw err;
      });
      return performance.now() - started;
    },
    drop(name) {
      if (!offered.some((t) => t.name === name)) return false;
      dropped.add(name);
      rebuild();
      // Its server's event names the list the model is now sent.
      const slot = slots.find((s) => s.plan.name === serverOf.get(name));
      if (slot?.client) announce(slot, slot.client);
      return true;
    },
    async close() {
      controller.abort();
      await Promise.allSettled(slots.map(async (slot) => slot.client?.close()));
    },
  };
}

function tooMany(count: number, connected: readonly Slot[]): string {
  const per = connected.map((s) => `${s.plan.name} (${s.client!.tools().filter((t) => toolEnabled(s.plan, t.name)).length})`).join(", ");
  return `MCP servers offer ${count} tools (${per}), over the ${MAX_TOOLS} a request can carry well; none is offered — name the ones wanted with "enabledTools" in each server's config (or "disabledTools")`;
}
