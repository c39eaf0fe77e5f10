import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CheckpointStore } from "../checkpoint/checkpoint-store.ts";
import { createCheckpoints, type Checkpoints } from "../checkpoint/checkpoints.ts";
import { createSavedCommands, type SavedCommands } from "../commands/saved-commands.ts";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import { hookProgramFiles, programFiles } from "../guard/program-files.ts";
import { secretNames } from "../guard/secret-names.ts";
import type { Hooks } from "../hooks/create-hooks.ts";
import { confineWith } from "../mcp/confine-server.ts";
import type { StartOptions as McpStartOptions } from "../mcp/mcp-servers.ts";
import { openMcp, type Mcp } from "../mcp/open-mcp.ts";
import { unknownServerRules } from "../mcp/rule-servers.ts";
import { livePluginChecks } from "../registry/live-plugin-checks.ts";
import { liveSkills, type LiveSkills } from "../registry/live-skills.ts";
import { envRules, toolEnv } from "../secrets/tool-env.ts";
import { lazyApprovals, type Approvals } from "../store/approvals.ts";
import type { SessionStore } from "../store/session-store.ts";
import type { Authorize } from "../tools/authorize-request.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import type { ClientFiles } from "../tools/tool.ts";
import type { TextFormat } from "../wire/build-request.ts";
import { openModelService, type ModelService } from "./model-service.ts";
import { openSandbox } from "./open-sandbox.ts";
import { openStores, type Stores } from "./open-stores.ts";
import { permissionRules } from "./permission-rules.ts";
import { createProgramList } from "./program-list.ts";
import type { Config, Flags } from "./settings.ts";
import { startHooks } from "./start-hooks.ts";
import { createAgentCatalog, type AgentCatalog } from "../subagents/agent-catalog.ts";
import { parseRunAgents } from "../subagents/run-agents.ts";
import { createToolAccess } from "./tool-access.ts";
import { jobRegistries, jobsDir, type JobRegistries } from "./job-registries.ts";

export type ServicesOptions = {
  flags: Flags;
  config: Config & { apiKey: string };
  cwd: string;
  warn: (line: string) => void;
  /** The REPL asks the person; print mode has no `ask`, so an ask becomes a denial. */
  ask?: (request: AskRequest) => Promise<AskAnswer>;
  interruptSignal?: () => AbortSignal;
  /** The shape every answer must take (`--output-schema`). */
  textFormat?: TextFormat;
  /** The REPL's built-in commands and aliases, which no saved command may take. */
  builtinCommands?: readonly string[];
  /** The REPL shows a project's unapproved hooks and asks; without it (print mode) they are skipped, said in one line. */
  approveHooks?: (lines: readonly string[]) => Promise<boolean>;
  /** Where each change of an MCP server goes (redacted): a server arriving in the REPL, an `mcp` event of `--json`. Without it, a failure is warned. */
  reportMcp?: McpStartOptions["report"];
  /** Shows lines and asks yes or no (the REPL): a project's agent is approved so. Without it, one not approved yet is refused. */
  confirm?: (lines: readonly string[], question: string) => Promise<boolean>;
  /** An editor's session mode (src/acp/): whether "yolo" is in force, asked at each call; `--yolo` otherwise. */
  yolo?: () => boolean;
  /** The editor the file tools read and write through (an ACP client's `fs/*`); the disk when absent. */
  files?: ClientFiles;
};

/**
 * What one process shares, built once before any agent exists: the stores, the sandbox and the gate
 * every call passes, the hooks, the MCP servers, the saved commands and the model endpoint. No
 * service knows an agent; agents (src/agent/) are made from these.
 */
export type Services = {
  readonly flags: Flags;
  readonly config: Config & { apiKey: string; textFormat?: TextFormat };
  readonly cwd: string;
  readonly warn: (line: string) => void;
  readonly sessions: SessionStore;
  /** Records each turn's file changes, so `undo` can put them back; where they are, and where `undo --force` keeps what it overwrites. */
  readonly checkpoints: Checkpoints;
  readonly undoStore: { store: CheckpointStore; keptDir: string };
  readonly approvals: () => Promise<Approvals>;
  readonly authorize: Authorize;
  /** What every tool call runs with: the sandbox, the read and write checks, the environment, the redactor. */
  readonly host: ToolHost;
  /** The person's hooks (docs/hooks.md); none with --no-hooks or when there are none. */
  readonly hooks?: Hooks;
  /** The MCP servers, started in the background: their tools join an agent's as they come. */
  readonly mcp: Mcp;
  readonly commands: SavedCommands;
  /** The kinds of child agent a `task` call may start (built-in, the person's, the project's once approved, `--agents`'). */
  readonly agents: AgentCatalog;
  readonly model: ModelService;
  readonly skills: LiveSkills;
  /** The background jobs' logs, and a registry per agent. */
  readonly jobs: JobRegistries;
  /** Lets go of what the process holds: the checkpoints' watch, the MCP servers. */
  close(): Promise<void>;
};

/** `stores`: opened first (open-stores.ts), so a session can be opened, or refused, before anything starts. */
export async function createServices(opts: ServicesOptions, stores: Stores = openStores(opts.config.home, opts.flags.ephemeral, opts.warn)): Promise<Services> {
  const { flags, config, cwd, warn } = opts;
  const { store, checkpointStore, disposeCheckpoints } = stores;
  const rules = permissionRules(config, flags.rules);
  const model = await openModelService(flags, config, store.saves, warn);
  const root = realpathSync(cwd);
  const plugins = await livePluginChecks(config.home, warn);
  // One list of secret names (built-in and config `secretFiles`) for the guard, the rules, the searches and the sandbox.
  const secretFiles = secretNames(config.secretFiles);
  // The project's files the hooks and MCP servers in force run as the person: no tool or command of the model's writes them.
  const programs = createProgramList();
  const sandbox = await openSandbox(config, { warn, isSecretPath: secretFiles.isSecretPath, rules, programs: programs.files });
  // The file tools reach the project and the added folders; `$SHIRO_HOME` only opens to a person.
  // The jobs' logs are read as an added folder: a job's whole output, past what bash_output shows.
  const logs = jobsDir();
  const reach = { writable: config.writableDirs, readable: [...config.readableDirs, logs], shiroHome: config.home, programs: programs.files };
  // Read once, and only when a project brings a server, hooks or a command to approve.
  const approvals = lazyApprovals({ home: config.home, save: store.saves, warn });
  const hooks = flags.noHooks ? undefined : await startHooks({ flags, config, cwd, approvals, warn, ...(opts.approveHooks ? { approve: opts.approveHooks } : {}), sandbox });
  if (hooks) programs.add(() => hooks.commands().flatMap((command) => hookProgramFiles(command, root, homedir())));
  const secrets = toolEnv(process.env, envRules(config));
  const access = createToolAccess({ cwd, apiKey: config.apiKey, rules, reach, yolo: opts.yolo ?? flags.yolo, secretFiles, sandbox, plugins, secrets, ...(opts.ask ? { ask: opts.ask } : {}), ...(opts.interruptSignal ? { interruptSignal: opts.interruptSignal } : {}), ...(opts.files ? { files: opts.files } : {}) });
  const redact = access.host.redactor.text;
  const jobs = jobRegistries(logs, access.host.redactor);
  const commands = createSavedCommands({ home: config.home, root: cwd, userHome: homedir(), builtins: opts.builtinCommands ?? [], approvals, warn });
  const runAgents = flags.agents === undefined ? [] : parseRunAgents(flags.agents);
  const agents = createAgentCatalog({ home: config.home, root: cwd, userHome: homedir(), runAgents, approvals, ...(opts.confirm ? { confirm: opts.confirm } : {}), warn });
  // Started now; the first call waits for them (the REPL's for those marked `required` only, mcp-servers.ts).
  // A server's stderr (in its failure line) may print a secret it was given: redacted like any output.
  const report = opts.reportMcp;
  const mcp = await openMcp({
    mcp: config.mcp,
    cwd,
    approvals,
    baseEnv: secrets.env,
    env: process.env,
    mode: opts.ask !== undefined ? "repl" : "print",
    warn: (line) => warn(redact(line)),
    ...(report ? { report: (e, line) => report(e.error === undefined ? e : { ...e, error: redact(e.error) }, line === undefined ? undefined : redact(line)) } : {}),
    confine: confineWith(sandbox),
  });
  programs.add(() => mcp.servers.programs().flatMap(({ argv, cwd: dir }) => programFiles(argv, dir, root, homedir())));
  unknownServerRules(rules, mcp.known).forEach(warn);
  const checkpoints = createCheckpoints({ root: cwd, store: checkpointStore, warn, ...(disposeCheckpoints ? { dispose: disposeCheckpoints } : { onFsError: (err) => store.stopSaving(err) }) });
  return {
    flags,
    config: { ...config, ...(opts.textFormat ? { textFormat: opts.textFormat } : {}) },
    cwd,
    warn,
    sessions: store,
    checkpoints,
    undoStore: { store: checkpointStore, keptDir: join(config.home, "undo-kept") },
    approvals,
    ...access,
    ...(hooks ? { hooks } : {}),
    mcp,
    commands,
    agents,
    model,
    skills: liveSkills({ home: config.home, root: cwd, warn }),
    jobs,
    async close() {
      jobs.close();
      checkpoints.close();
      await mcp.servers.close();
    },
  };
}
