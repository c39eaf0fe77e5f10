import { isAbsolute, resolve } from "node:path";
import { expandVars, type McpServerConfig } from "./mcp-config.ts";
import type { McpServerDef } from "./mcp-types.ts";
import type { SandboxLevel } from "../session/sandbox-level.ts";

/** A server as the configuration names it, with where it was written (for messages) and whether a project brought it. */
export type McpServerEntry = { name: string; config: McpServerConfig; origin: string; project?: boolean };


/** Everything shiro needs to start a server and use its tools. */
export type ServerPlan = {
  name: string;
  origin: string;
  launch: McpServerDef;
  required: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Progress notifications extend a call's timeout, never beyond this. */
  maxToolTimeoutMs: number;
  enabledTools?: readonly string[];
  disabledTools: readonly string[];
  /** A program confined by the OS sandbox at this level (config `sandbox`). */
  sandbox?: SandboxLevel;
  /** Why it cannot start (a variable its definition names is unset), in one line naming it: it fails as it starts. */
  problem?: string;
};

export const DEFAULT_STARTUP_TIMEOUT_S = 10;
export const DEFAULT_TOOL_TIMEOUT_S = 120;
/** A tool reporting progress may run this many times its timeout. */
export const PROGRESS_TIMEOUT_FACTOR = 10;

/**
 * A server's plan, with why it cannot start when a variable its definition names is unset (its
 * `problem`: the server is still one of the run's, shown failed). A program gets `baseEnv` (what every
 * command gets: the environment less its secrets) plus exactly the variables its `env` names.
 */
export function planServer(entry: McpServerEntry, opts: { cwd: string; env: Readonly<Record<string, string | undefined>>; baseEnv: Readonly<Record<string, string>> }): ServerPlan {
  const { config } = entry;
  const missing: string[] = [];
  const expand = (text: string) => {
    const out = expandVars(text, opts.env);
    missing.push(...out.missing);
    return out.value;
  };
  const expandAll = (record: Record<string, string> = {}) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expand(v)]));
  let launch: McpServerDef;
  let problem: string | undefined;
  if (config.url !== undefined) {
    const headers = expandAll(config.headers);
    if (config.bearerTokenEnv !== undefined) {
      const token = opts.env[config.bearerTokenEnv];
      if (token) headers.Authorization = `Bearer ${token}`;
      else problem = `bearerTokenEnv names ${config.bearerTokenEnv}, which is not set; export it or remove the key`;
    }
    launch = { kind: "http", url: expand(config.url), headers };
  } else {
    const cwd = config.cwd === undefined ? opts.cwd : isAbsolute(expand(config.cwd)) ? expand(config.cwd) : resolve(opts.cwd, expand(config.cwd));
    launch = { kind: "stdio", command: expand(config.command!), args: (config.args ?? []).map(expand), cwd, env: { ...opts.baseEnv, ...expandAll(config.env) } };
  }
  if (missing.length) problem ??= `its definition uses \${${missing[0]}}, which is not set; export it or give a default (\${${missing[0]}:-value})`;
  const toolTimeoutMs = (config.toolTimeout ?? DEFAULT_TOOL_TIMEOUT_S) * 1000;
  return {
    name: entry.name,
    origin: entry.origin,
    launch,
    required: config.required === true,
    startupTimeoutMs: (config.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_S) * 1000,
    toolTimeoutMs,
    maxToolTimeoutMs: toolTimeoutMs * PROGRESS_TIMEOUT_FACTOR,
    ...(config.enabledTools ? { enabledTools: config.enabledTools } : {}),
    disabledTools: config.disabledTools ?? [],
    ...(config.sandbox ? { sandbox: config.sandbox } : {}),
    ...(problem !== undefined ? { problem: `MCP server "${entry.name}" (${entry.origin}) did not start: ${problem}` } : {}),
  };
}

/** Whether a server's tool is offered, by its `enabledTools` (only those, when given) and `disabledTools`. */
export const toolEnabled = (plan: Pick<ServerPlan, "enabledTools" | "disabledTools">, tool: string): boolean =>
  (plan.enabledTools === undefined || plan.enabledTools.includes(tool)) && !plan.disabledTools.includes(tool);
