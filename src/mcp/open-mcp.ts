import { realpathSync } from "node:fs";
import type { Approvals } from "../store/approvals.ts";
import type { SandboxLevel } from "../session/sandbox-level.ts";
import { confinedServer, type Confine } from "./confine-server.ts";
import { connectMcpServer } from "./connect-server.ts";
import { startMcpServers, type Connect, type McpServers, type StartOptions } from "./mcp-servers.ts";
import { approvalQuestion, projectServers, skippedNotice, type UnapprovedServer } from "./project-servers.ts";
import { planServer, type McpServerEntry } from "./server-plan.ts";
import type { McpServerDef } from "./mcp-types.ts";

/** A run's MCP servers, and the project's still waiting for the person's approval. */
export type Mcp = {
  servers: McpServers;
  /** The project's servers not approved as they stand (the REPL asks about each; print mode skips them, saying so). */
  unapproved: readonly UnapprovedServer[];
  /** Every server the configuration and the project name, approved or not. */
  known: readonly string[];
  /** The question to ask about one. */
  question(server: UnapprovedServer): string;
  /** Keeps the approval of that exact definition and starts the server. */
  approve(server: UnapprovedServer): Promise<void>;
};

export type OpenMcpOptions = {
  mcp: { enabled: boolean; explicit: boolean; servers: readonly McpServerEntry[] };
  cwd: string;
  /** Where a project's servers approved before are found, and a new approval kept (read only when a `.mcp.json` is there). */
  approvals: () => Promise<Approvals>;
  /** What every command's environment holds (the person's less its secrets, secrets/tool-env.ts): a program server gets it and its own `env`. */
  baseEnv: Readonly<Record<string, string>>;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * `repl`: servers start in the background, and the project's unapproved ones wait to be asked about.
   * `print`: the first call waits for every server (`Startup`), and nobody can approve a project's
   * server, so unapproved ones are skipped with a notice. `check` (`shiro mcp list|test`): as print,
   * but nothing is said of a failure or of unapproved servers: the caller's listing says it.
   */
  mode: "repl" | "print" | "check";
  warn: (line: string) => void;
  /** Each change of a server, with the line a person reads (mcp-servers.ts); without it the line is warned. */
  report?: StartOptions["report"];
  connect?: Connect;
  /** Starts only this server, even one `enabled: false` (`shiro mcp test`). */
  only?: string;
  /** The OS sandbox for a server whose config asks for one (`sandbox`). */
  confine?: Confine;
};

/**
 * Starts the configured servers (never waiting for one here: the first model call does), and finds the
 * project's: a `.mcp.json` in the folder shiro runs in is used only for definitions the person approved,
 * and not at all with `--mcp-config` (the files given are the whole configuration) or `--no-mcp`.
 */
export async function openMcp(opts: OpenMcpOptions): Promise<Mcp> {
  const root = realpathSync(opts.cwd);
  const own = opts.mcp.servers;
  const readProject = opts.mcp.enabled && !opts.mcp.explicit;
  const project = readProject ? await projectServers({ root, approvals: opts.approvals, own: own.map((s) => s.name), warn: opts.warn }) : { approved: [], unapproved: [] };
  const levels = new Map<string, SandboxLevel>();
  const plan = (entry: McpServerEntry) => {
    const planned = planServer(entry, { cwd: opts.cwd, env: opts.env, baseEnv: opts.baseEnv });
    if (planned.sandbox) levels.set(planned.name, planned.sandbox);
    return planned;
  };
  const reach = opts.connect ?? connectMcpServer;
  const connect: Connect = async (name, def, o) => {
    const level = levels.get(name);
    if (level === undefined || def.kind !== "stdio") return reach(name, def, o);
    const sandbox = await opts.confine?.(level);
    if (!sandbox) throw new Error(`MCP server "${name}" did not start: its config asks for the sandbox (${level}), and no OS sandbox runs here (shiro doctor says why)`);
    let confined: McpServerDef;
    try {
      confined = confinedServer(def, sandbox, root);
    } catch (err) {
      throw new Error(`MCP server "${name}" did not start: ${(err as Error).message}`);
    }
    return reach(name, confined, o);
  };
  const wanted = (entry: McpServerEntry) => (opts.only === undefined ? entry.config.enabled !== false : entry.name === opts.only);
  const enabled = [...own, ...project.approved].filter(wanted);
  const silent: StartOptions["report"] = () => {};
  const report = opts.mode === "check" ? silent : opts.report;
  const servers = startMcpServers(enabled.map(plan), { connect, warn: opts.warn, startup: opts.mode === "repl" ? "background" : "awaited", ...(report ? { report } : {}) });
  const unapproved = project.unapproved.filter((s) => wanted(s.entry));
  if (unapproved.length && opts.mode === "print") opts.warn(skippedNotice(unapproved));
  return {
    servers,
    unapproved,
    known: [...own, ...project.approved, ...project.unapproved.map((s) => s.entry)].map((e) => e.name),
    question: approvalQuestion,
    async approve(server) {
      await (await opts.approvals()).add("mcp-server", root, server.entry.name, server.hash);
      servers.add(plan(server.entry));
    },
  };
}
