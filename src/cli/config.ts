import { z } from "zod";
import { realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { homedir } from "node:os";
import { closedObject } from "../text/closed-object.ts";
import { readJson } from "../store/read-json.ts";
import { SANDBOX_MODES, type SandboxMode } from "../sandbox/sandbox-mode.ts";
import { SANDBOX_BACKENDS, type SandboxBackend } from "../sandbox/detect-sandbox.ts";
import { REASONING_EFFORTS } from "../wire/reasoning-effort.ts";
import { validUrl } from "./args.ts";
import type { Config, Flags } from "../services/settings.ts";
import { UsageError } from "../exit/usage-error.ts";
import { API_KEY_VAR } from "../secrets/tool-env.ts";
import { hooksSchema, notifyEntrySchema } from "../hooks/hook-config.ts";
import { mcpFileSchema, mcpServersSchema, serverConfigProblem, type McpServerConfig } from "../mcp/mcp-config.ts";
import type { McpServerEntry } from "../mcp/server-plan.ts";

const varName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name (letters, digits, _)");
/** A variable commands get though its name or value says secret (tool-env.ts). */
const passedVar = varName
  .refine((name) => name.toUpperCase() !== API_KEY_VAR, `${API_KEY_VAR} is shiro's own key and never reaches a tool`);

const sandboxModeSchema = z.enum(SANDBOX_MODES as [SandboxMode, ...SandboxMode[]]);
const backendSchema = z.enum(SANDBOX_BACKENDS as [SandboxBackend, ...SandboxBackend[]]);
const folder = z.string().min(1, "must be a folder path");

const usdPerMillion = z.number().nonnegative("must be a price in US dollars per 1M tokens, ≥ 0");

/**
 * config.json: every field optional; unknown keys are an error (naming the key meant) so a typo is
 * never silently ignored. docs/configuration.md lists every key.
 */
export const configFileSchema = closedObject({
  model: z.string().min(1).optional(),
  baseUrl: z.string().optional(),
  maxSteps: z.number().int().min(1).optional(),
  compactAt: z.number().int().min(1).optional(),
  /** Seconds without a byte from the API before a model call attempt is retried. */
  idleTimeout: z.number().positive().optional(),
  env: closedObject({ pass: z.array(passedVar).optional() }).optional(),
  contextWindow: z.number().int().min(1000).optional(),
  reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
  /** USD per 1M tokens by model id, for models shiro has no price for (or whose price changed). */
  pricing: z.record(z.string().min(1), closedObject({ input: usdPerMillion, cachedInput: usdPerMillion.optional(), output: usdPerMillion })).optional(),
  /** A mode alone (`"read-only"`), or the mode with the folders and variables commands get. */
  sandbox: z.union([sandboxModeSchema, closedObject({ mode: sandboxModeSchema.optional(), backend: backendSchema.optional(), writable: z.array(folder).optional(), readable: z.array(folder).optional(), env: z.array(passedVar).optional(), denyEnv: z.array(varName).optional() })]).optional(),
  /** true: every command gets the network; unset: only those a person approved; false: none (as --no-network). */
  network: z.boolean().optional(),
  /** Variables secret by the person's word: kept from commands and redacted as `GITHUB_TOKEN` is. */
  secrets: closedObject({ env: z.array(varName).optional() }).optional(),
  /** More names (globs) of secret files, masked and refused like the built-in ones. */
  secretFiles: z.array(z.string().min(1, "must be a file name or glob such as \"*.secret\"")).optional(),
  registryUrl: z
    .string()
    .refine((url) => URL.canParse(url) && new URL(url).protocol === "https:", "must be an https:// URL (the registry is only fetched over https)")
    .optional(),
  permissions: z.array(z.unknown()).optional(),
  /** Child agents: how many of one parent's run at once (`maxParallel`), how many levels deep (`maxDepth`: 1, children start none). */
  agents: closedObject({ maxParallel: z.number().int().min(1).max(16).optional(), maxDepth: z.number().int().min(0).max(4).optional() }).optional(),
  /** Claude Code's shape: event → [{ matcher, hooks: [{ type: "command", command, timeout, onFailure }] }] (docs/hooks.md). */
  hooks: hooksSchema.optional(),
  /** Commands run when a run stops and when an approval waits: the short form of Stop and Notification hooks. */
  notify: z.array(notifyEntrySchema).optional(),
  /** Variables hooks get beyond what commands get (OPENAI_API_KEY too, only if named here). */
  hooksEnv: z.array(varName).optional(),
  /** MCP servers by name, in the `.mcp.json` shape (docs/mcp.md). */
  mcpServers: mcpServersSchema.optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export type { Config };

export const DEFAULT_MODEL = "gpt-5";
export const DEFAULT_MAX_STEPS = 50;
export const DEFAULT_IDLE_TIMEOUT_S = 120;

/** Nothing but the CLI reads $HOME: everything else is handed its directory. */
export function resolveHome(env: NodeJS.ProcessEnv): string {
  return env.SHIRO_HOME && env.SHIRO_HOME.trim() !== "" ? env.SHIRO_HOME : join(homedir(), ".shiro-neko");
}

/** config file < environment < flags. Throws UsageError naming the bad field. */
export async function loadConfig(flags: Flags, env: NodeJS.ProcessEnv): Promise<Config> {
  const home = resolveHome(env);
  const path = join(home, "config.json");
  const read = await readJson(path, configFileSchema);
  if (!read.ok && read.reason === "corrupt") throw new UsageError(`${read.message} — fix or remove it`);
  const file: ConfigFile = read.ok ? read.value : {};
  const sandboxFile = typeof file.sandbox === "string" ? { mode: file.sandbox } : (file.sandbox ?? {});
  const baseUrl = flags.baseUrl ?? env.OPENAI_BASE_URL ?? file.baseUrl;
  return {
    home,
    model: flags.model ?? nonBlank(env.SHIRO_MODEL) ?? file.model ?? DEFAULT_MODEL,
    baseUrl: baseUrl ? validUrl(baseUrl, flags.baseUrl ? "--base-url" : env.OPENAI_BASE_URL ? "OPENAI_BASE_URL" : `baseUrl in ${path}`) : undefined,
    apiKey: nonBlank(env.OPENAI_API_KEY),
    maxSteps: flags.maxSteps ?? file.maxSteps ?? DEFAULT_MAX_STEPS,
    compactAt: flags.compactAt ?? file.compactAt,
    idleTimeoutMs: (flags.idleTimeout ?? file.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_S) * 1000,
    envPass: [...(file.env?.pass ?? []), ...(sandboxFile.env ?? [])],
    denyEnv: sandboxFile.denyEnv ?? [],
    secretEnv: file.secrets?.env ?? [],
    contextWindow: file.contextWindow,
    reasoningEffort: flags.reasoningEffort ?? file.reasoningEffort,
    pricing: file.pricing ?? {},
    // Unset, the mode is workspace-write: approved commands may write the project, others run read-only.
    sandbox: flags.sandbox ?? sandboxFile.mode ?? "workspace-write",
    sandboxBackend: envBackend(env.SHIRO_SANDBOX_BACKEND) ?? sandboxFile.backend ?? "auto",
    writableDirs: [...(sandboxFile.writable ?? []).map((d) => folderPath(d, `sandbox.writable in ${path}`)), ...flags.addDirs.map((d) => folderPath(d, "--add-dir"))],
    readableDirs: (sandboxFile.readable ?? []).map((d) => folderPath(d, `sandbox.readable in ${path}`)),
    network: flags.noNetwork || file.network === false ? "off" : flags.network || file.network === true ? "on" : "approved",
    secretFiles: file.secretFiles ?? [],
    registryUrl: file.registryUrl,
    permissions: file.permissions ?? [],
    envPermissions: nonBlank(env.SHIRO_PERMISSIONS),
    ...(file.hooks ? { hooks: file.hooks } : {}),
    notify: file.notify ?? [],
    hooksEnv: file.hooksEnv ?? [],
    mcp: flags.noMcp
      ? { enabled: false, explicit: false, servers: [] }
      : { enabled: true, explicit: flags.mcpConfigs.length > 0, servers: await mcpServers(file.mcpServers ?? {}, path, flags.mcpConfigs) },
    agents: { maxParallel: file.agents?.maxParallel ?? 4, maxDepth: file.agents?.maxDepth ?? 1 },
  };
}

/** config.json's servers, then each `--mcp-config` file's (a later one of a name wins); a definition that cannot work is refused by name. */
export async function mcpServers(own: Record<string, McpServerConfig>, path: string, files: readonly string[]): Promise<McpServerEntry[]> {
  const byName = new Map<string, McpServerEntry>();
  const take = (servers: Record<string, McpServerConfig>, origin: string) => {
    for (const [name, config] of Object.entries(servers)) {
      const problem = serverConfigProblem(config);
      if (problem) throw new UsageError(`mcpServers.${name} in ${origin}: ${problem}`);
      byName.set(name, { name, config, origin });
    }
  };
  take(own, path);
  for (const file of files) {
    const read = await readJson(resolve(file), mcpFileSchema);
    if (!read.ok) throw new UsageError(read.reason === "missing" ? `--mcp-config ${file}: no such file` : `--mcp-config: ${read.message}`);
    take(read.value.mcpServers, file);
  }
  return [...byName.values()];
}

/** A folder given to the sandbox: `~/` expanded, made absolute, and it must exist (a typo would silently grant nothing). */
function folderPath(dir: string, what: string): string {
  const absolute = resolve(dir.startsWith("~/") ? join(homedir(), dir.slice(2)) : dir);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new UsageError(`${what}: ${dir} does not exist; create it or remove it from the list`);
  }
  if (!statSync(real).isDirectory()) throw new UsageError(`${what}: ${dir} is not a folder`);
  return real;
}

function envBackend(value: string | undefined): SandboxBackend | undefined {
  if (!value?.trim()) return undefined;
  if ((SANDBOX_BACKENDS as readonly string[]).includes(value)) return value as SandboxBackend;
  throw new UsageError(`SHIRO_SANDBOX_BACKEND must be one of ${SANDBOX_BACKENDS.join(", ")}, got "${value}"`);
}

const nonBlank = (s: string | undefined) => (s && s.trim() !== "" ? s : undefined);
