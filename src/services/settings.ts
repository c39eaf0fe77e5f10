import type { McpServerEntry } from "../mcp/server-plan.ts";
import type { Pricing } from "../pricing/cost.ts";
import type { NetworkMode, SandboxMode } from "../sandbox/sandbox-mode.ts";
import type { SandboxBackend } from "../sandbox/detect-sandbox.ts";
import type { ReasoningEffort } from "../wire/reasoning-effort.ts";
import type { HooksConfig, NotifyEntry } from "../hooks/hook-config.ts";

/**
 * What a run is asked to be: the flags as parsed (cli/args.ts) and the configuration they resolve
 * to (cli/config.ts). Declared here, below both modes, so print mode and the REPL take their settings
 * from the runtime they drive and never import the command line.
 */
export type InstructionFiles = "all" | "personal" | "none";

export type Flags = {
  prompt?: string;
  /** `-i, --image`: image files sent with the first prompt, as given. */
  images: string[];
  print: boolean;
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  compactAt?: number;
  /** Seconds without a byte from the API before an attempt is abandoned and retried. */
  idleTimeout?: number;
  /** Print mode's wall-time limit for the whole run, in seconds. */
  timeout?: number;
  /** Print mode's cost limit for the run, in US dollars. */
  maxCost?: number;
  json: boolean;
  /** A JSON Schema file the final answer must match (print mode). */
  outputSchema?: string;
  /** A file the final answer is also written to (print mode). */
  output?: string;
  /** `--allow` / `--deny` rules as written (`tool` or `tool:pattern`), in command-line order. */
  rules: { decision: "allow" | "deny"; spec: string }[];
  reasoningEffort?: ReasoningEffort;
  /** Nothing is written under $SHIRO_HOME: no session, memory or index (print mode). */
  ephemeral: boolean;
  yolo: boolean;
  /** `--plan`: plan mode (true); `--no-plan`: out of it (false); absent: the session's own. */
  plan?: boolean;
  sandbox?: SandboxMode;
  /** `--no-network`: no command gets the network, approved or not. */
  noNetwork: boolean;
  /** `--network`: every command gets the network, approved or not. */
  network: boolean;
  /** `--add-dir`: folders commands may write besides the project, as given. */
  addDirs: string[];
  continue: boolean;
  resume?: string;
  /**
   * Which instruction files are read: `all`; `personal` (`--no-project-instructions`: `$SHIRO_HOME/AGENTS.md`
   * or `~/.claude/CLAUDE.md` only, none of the project's, root or subfolder); `none` (`--no-instructions`).
   */
  instructionFiles: InstructionFiles;
  noMemory: boolean;
  /** `--hooks <file>`: more hooks, trusted as the person's own for this run (a project's settings file included). */
  hooksFiles: string[];
  /** `--no-hooks`: no hook runs, whoever configured it. */
  noHooks: boolean;
  /** `--mcp-config`: files of MCP servers in the `.mcp.json` shape, as given. */
  mcpConfigs: string[];
  /** `--no-mcp`: no MCP server starts, configured or the project's. */
  noMcp: boolean;
  /** `--agents '<json>'`: child agents defined for this run, as written (docs/agents.md). */
  agents?: string;
  version: boolean;
  help: boolean;
  /** A subcommand (`sessions`, `inspect`, `registry`, `doctor`, `undo`) and its own arguments. */
  command?: { name: string; args: string[] };
};

export type Config = {
  home: string;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  maxSteps: number;
  compactAt?: number;
  idleTimeoutMs: number;
  /** Names from `sandbox.env` (and the older `env.pass`): variables commands get though their name or value says secret. */
  envPass: string[];
  /** Names from `sandbox.denyEnv`: variables kept from commands though nothing says secret. */
  denyEnv: string[];
  /** Names from `secrets.env`: variables as secret as a telling name makes them (kept from commands, redacted). */
  secretEnv: string[];
  contextWindow?: number;
  reasoningEffort?: ReasoningEffort;
  pricing: Pricing;
  sandbox: SandboxMode;
  /** Which OS sandbox: `auto` (bubblewrap, else Landlock), or one forced (SHIRO_SANDBOX_BACKEND, `sandbox.backend`). */
  sandboxBackend: SandboxBackend;
  /** Absolute folders commands (and file tools) may write besides the project: `--add-dir`, `sandbox.writable`. */
  writableDirs: string[];
  /** Absolute folders commands (and file tools) may read besides the project: `sandbox.readable`. */
  readableDirs: string[];
  /** `on`: every command gets the network (`--network`, `network: true`); `approved`: only those a person approved; `off`: none (`--no-network`). */
  network: NetworkMode;
  /** Extra secret-file globs (`secretFiles`). */
  secretFiles: string[];
  registryUrl?: string;
  /** The file's `permissions`, as written: checked when a session starts (runtime/permission-rules.ts). */
  permissions: unknown[];
  /** The person's hooks (`hooks`), `notify` commands, and variables hooks get beyond the commands' (`hooksEnv`). */
  hooks?: HooksConfig;
  notify: NotifyEntry[];
  hooksEnv: string[];
  /** SHIRO_PERMISSIONS, as set: more rules, after the file's. */
  envPermissions?: string;
  /**
   * The person's own MCP servers: config.json's `mcpServers`, then each `--mcp-config` file's (a later
   * definition of a name wins). `mcp`: off with `--no-mcp`; `explicit` when a file was given (a project's
   * `.mcp.json` is then not read).
   */
  mcp: { enabled: boolean; explicit: boolean; servers: McpServerEntry[] };
  /** Child agents (`agents` in config.json): how many of one parent's run at once, and how deep the tree may grow. */
  agents: { maxParallel: number; maxDepth: number };
};
