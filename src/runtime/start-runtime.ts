import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD } from "../version.ts";
import { createCheckpointStore, type CheckpointStore } from "../checkpoint/checkpoint-store.ts";
import { createCheckpoints } from "../checkpoint/checkpoints.ts";
import { finishUndos, openForUndo } from "../checkpoint/undo-turns.ts";
import { createSandbox, type Sandbox } from "../sandbox/create-sandbox.ts";
import { UsageError } from "../exit/usage-error.ts";
import type { Authorize } from "../loop/run-tool-call.ts";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import { createAuthorize } from "../guard/authorize.ts";
import { everyCheck } from "../guard/every-check.ts";
import { secretLinkCheck } from "../guard/secret-link-check.ts";
import { createReadCheck } from "../guard/read-check.ts";
import { secretNames } from "../guard/secret-names.ts";
import { hookProgramFiles, programFiles } from "../guard/program-files.ts";
import { createWriteCheck } from "../guard/write-check.ts";
import { SessionAllows } from "../guard/session-allows.ts";
import { livePluginChecks } from "../registry/live-plugin-checks.ts";
import { liveSkills } from "../registry/live-skills.ts";
import { openLearnedWindows } from "../store/learned-windows.ts";
import { createSessionStore, type SessionStore } from "../store/session-store.ts";
import { cannotWrite, fsErrorWords, isFsError } from "../store/writable-dir.ts";
import { createUnsavedStore } from "../store/unsaved-store.ts";
import type { TextFormat } from "../wire/build-request.ts";
import { endpointOf } from "../wire/base-url.ts";
import { createOpenAIStream } from "../wire/openai-stream.ts";
import { createModelLister } from "../wire/list-models.ts";
import { createLiveRedactor } from "../secrets/live-redactor.ts";
import { createKnownSecretValues } from "../secrets/known-secret-values.ts";
import { API_KEY_VAR, envRules, toolEnv } from "../secrets/tool-env.ts";
import type { Flags } from "./settings.ts";
import { checkModelOptions } from "./check-model-options.ts";
import type { Config } from "./settings.ts";
import { permissionRules } from "./permission-rules.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { loadPrompt } from "./load-prompt.ts";
import { openMcp, type Mcp } from "../mcp/open-mcp.ts";
import type { StartOptions as McpStartOptions } from "../mcp/mcp-servers.ts";
import { unknownServerRules } from "../mcp/rule-servers.ts";
import { lazyApprovals } from "../store/approvals.ts";
import { confineWith } from "../mcp/confine-server.ts";
import { openById, openSession, resolveId } from "./open-session.ts";
import { createCommandCalls } from "./command-calls.ts";
import { createSavedCommands } from "../commands/saved-commands.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import { startHooks } from "./start-hooks.ts";
import type { Hooks } from "../hooks/create-hooks.ts";

export type StartOptions = {
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
};

/** Opens (or resumes) a session and wires its prompt, gate, model stream and store into a runtime. */
export async function startRuntime(opts: StartOptions): Promise<Runtime> {
  const { flags, config, cwd, warn } = opts;
  const rules = permissionRules(config, flags.rules);
  const { store, checkpointStore, disposeCheckpoints } = openStores(config.home, flags.ephemeral, warn);
  const effortLabel = flags.reasoningEffort ? `--reasoning-effort ${flags.reasoningEffort}` : `reasoningEffort "${config.reasoningEffort}" in ${join(config.home, "config.json")}`;
  const checkModel = (model: string) => checkModelOptions(model, { effort: config.reasoningEffort, effortLabel, maxCostUsd: flags.maxCost });
  // A new session's model is known before it is made; a continued one's only once it is read.
  const continuing = flags.continue || flags.resume !== undefined;
  if (!continuing) checkModel(config.model);
  // An undo a killed shiro left half done is finished before anything else reads the project.
  if (store.saves && !disposeCheckpoints) await finishUndos({ store: checkpointStore, root: realpathSync(cwd), open: openForUndo(store, warn), warn });
  const session = await openSession(store, { flags, cwd, model: config.model, warn });
  try {
    if (continuing) checkModel(session.state.model);
  } catch (err) {
    session.close();
    throw err;
  }
  // todo_write keeps replacing the task list of whichever session is current (after /clear or /resume too).
  const notebook = {
    get todos() {
      return runtime.session.notebook.todos;
    },
    set todos(todos) {
      runtime.setTodos(todos);
    },
  };
  const skills = liveSkills({ home: config.home, root: cwd, warn });
  const reloadPrompt = () =>
    loadPrompt({ home: config.home, cwd, noInstructions: flags.noInstructions, noMemory: flags.noMemory, memoryReadOnly: !store.saves, notebook, skills, warn });
  const [prompt, plugins, windows] = await Promise.all([
    reloadPrompt(),
    livePluginChecks(config.home, warn),
    openLearnedWindows({ home: config.home, endpoint: endpointOf(config.baseUrl), save: store.saves, warn }),
  ]);
  // One list of secret names (built-in and config `secretFiles`) for the guard, the rules, the searches and the sandbox.
  const secretFiles = secretNames(config.secretFiles);
  // The project's files the hooks and MCP servers in force run as the person: no tool or command of the model's writes them.
  // (Both are started below, once the sandbox and the gate they use exist.)
  const root = realpathSync(cwd);
  const running: { hooks?: Hooks; mcp?: Mcp } = {};
  const programs = () => [
    ...(running.hooks?.commands() ?? []).flatMap((command) => hookProgramFiles(command, root, homedir())),
    ...(running.mcp?.servers.programs() ?? []).flatMap(({ argv, cwd: dir }) => programFiles(argv, dir, root, homedir())),
  ];
  const sandbox = createSandbox({
    mode: config.sandbox,
    network: config.network,
    home: homedir(),
    shiroHome: config.home,
    writable: config.writableDirs,
    readable: config.readableDirs,
    warn,
    isSecretPath: secretFiles.isSecretPath,
    rules,
    backend: config.sandboxBackend,
    programs,
  });
  await refuseUnavailableBackend(config, sandbox);
  // The file tools reach the project and the added folders; `$SHIRO_HOME` only opens to a person.
  const reach = { writable: config.writableDirs, readable: config.readableDirs, shiroHome: config.home, programs };
  // Read once, and only when a project brings a server, hooks or a command to approve.
  const approvals = lazyApprovals({ home: config.home, save: store.saves, warn });
  const hooks = (running.hooks = flags.noHooks ? undefined : await startHooks({ flags, config, cwd, approvals, warn, ...(opts.approveHooks ? { approve: opts.approveHooks } : {}), sessionId: () => runtime.session.id, record: (run) => runtime.logHook(run), sandbox }));
  // An approval waiting is what Notification hooks are for (a desktop notification while the person is away).
  const ask = opts.ask && (async (request: AskRequest) => (hooks?.notify(`shiro needs your approval: ${request.summary}`), opts.ask!(request)));
  // Hard links to secrets are refused to the file tools as the secrets are (the sandbox knows them by identity).
  const links = secretLinkCheck(sandbox.secretLink);
  const checks = [links, everyCheck(plugins.checks)];
  const gate = createAuthorize({ rules, reach, extraChecks: checks, yolo: flags.yolo, sessionAllows: new SessionAllows(), ...(ask ? { ask } : {}), confine: sandbox.canConfine, secrets: secretFiles });
  // A plugin installed mid-session (/registry add, or another terminal) guards the very next call.
  const authorize: Authorize = async (request) => {
    await plugins.refresh();
    return gate(request);
  };
  // Tools never see a secret variable, and no output shows one's value: not the model, nor a person, nor a file.
  const secrets = toolEnv(process.env, envRules(config));
  const known = createKnownSecretValues({ root: cwd, home: homedir(), isSecretPath: secretFiles.isSecretPath, envValues: secrets.values, projectSecrets: () => sandbox.projectSecrets(cwd) });
  const redactor = createLiveRedactor(() => [{ name: API_KEY_VAR, value: config.apiKey }, ...known()]);
  const host: ToolHost = {
    interruptSignal: opts.interruptSignal,
    sandbox: sandbox.at,
    readDenied: createReadCheck({ rules, reach, extraChecks: checks, secrets: secretFiles }),
    secretGlobs: secretFiles.globs,
    writeRefused: createWriteCheck({ rules, reach, secrets: secretFiles, extraChecks: [links] }),
    env: secrets.env,
    redactor,
  };
  const commands = createSavedCommands({
    home: config.home,
    root: cwd,
    userHome: homedir(),
    builtins: opts.builtinCommands ?? [],
    approvals,
    warn,
    ...createCommandCalls({ tools: () => runtime.prompt.tools, authorize, root: cwd, host, ...(hooks ? { hooks } : {}), inTurn: (run) => runtime.inNextTurn(run) }),
  });
  // Started now; the first call waits for them (the REPL's for those marked `required` only, mcp-servers.ts).
  // A server's stderr (in its failure line) may print a secret it was given: redacted like any output.
  const reportMcp = opts.reportMcp;
  const mcp = (running.mcp = await openMcp({
    mcp: config.mcp,
    cwd,
    approvals,
    baseEnv: secrets.env,
    env: process.env,
    mode: opts.ask !== undefined ? "repl" : "print",
    warn: (line) => warn(redactor.text(line)),
    ...(reportMcp
      ? { report: (e, line) => reportMcp(e.error === undefined ? e : { ...e, error: redactor.text(e.error) }, line === undefined ? undefined : redactor.text(line)) }
      : {}),
    confine: confineWith(sandbox),
  }));
  unknownServerRules(rules, mcp.known).forEach(warn);
  const runtime: Runtime = createRuntime({
    config: { ...config, ...(opts.textFormat ? { textFormat: opts.textFormat } : {}), ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}) },
    cwd,
    session,
    store,
    prompt,
    reloadPrompt,
    open: async (idOrPrefix) => openById(store, await resolveId(store, idOrPrefix, warn), warn),
    authorize,
    stream: createOpenAIStream({ apiKey: config.apiKey, baseURL: config.baseUrl, idleTimeoutMs: config.idleTimeoutMs }),
    windows,
    listModels: createModelLister({ apiKey: config.apiKey, baseURL: config.baseUrl }),
    warn,
    host,
    commands,
    undoStore: { store: checkpointStore, keptDir: join(config.home, "undo-kept") },
    ...(hooks ? { hooks } : {}),
    mcp,
    checkpoints: createCheckpoints({
      root: cwd,
      store: checkpointStore,
      warn,
      ...(disposeCheckpoints ? { dispose: disposeCheckpoints } : { onFsError: (err) => store.stopSaving(err) }),
    }),
  });
  return runtime;
}

/**
 * Where the run keeps its session and checkpoints. `--ephemeral`, or a `$SHIRO_HOME` where nothing
 * can be written (read-only, full): sessions are only read, and the checkpoints go to a temporary
 * folder removed at the end — one warning line says so, and the run goes on. A write that fails
 * later (the disk fills up during the run) leaves the rest of the run unsaved, said once too.
 */
function openStores(home: string, ephemeral: boolean, warn: (line: string) => void): { store: SessionStore; checkpointStore: CheckpointStore; disposeCheckpoints?: () => void } {
  const temporary = () => {
    const dir = mkdtempSync(join(tmpdir(), "shiro-checkpoints-"));
    return { checkpointStore: createCheckpointStore(dir), disposeCheckpoints: () => rmSync(dir, { recursive: true, force: true }) };
  };
  if (ephemeral) return { store: createUnsavedStore(), ...temporary() };
  const sessionsDir = join(home, "sessions");
  const why = cannotWrite(sessionsDir);
  if (why) {
    warn(`cannot save in ${home} (${why}); this run goes on unsaved, as with --ephemeral`);
    return { store: createSessionStore(sessionsDir, { save: false }), ...temporary() };
  }
  const store = createSessionStore(sessionsDir, {
    ...(BUILD ? { measuresBuild: BUILD } : {}),
    onUnsaved: (err) => warn(`could not save in ${home} (${fsErrorWords(err)}); the rest of this run goes on unsaved`),
  });
  try {
    return { store, checkpointStore: createCheckpointStore(join(home, "checkpoints")) };
  } catch (err) {
    if (!isFsError(err)) throw err;
    warn(`cannot keep checkpoints in ${join(home, "checkpoints")} (${fsErrorWords(err)}); this run's are kept in a temporary folder, removed at the end`);
    return { store, ...temporary() };
  }
}

/** A backend forced by `sandbox.backend` or SHIRO_SANDBOX_BACKEND must run: never a silent fallback to none. */
async function refuseUnavailableBackend(config: Config, sandbox: Sandbox): Promise<void> {
  if (config.sandbox === "off" || (config.sandboxBackend !== "bwrap" && config.sandboxBackend !== "landlock")) return;
  const support = await sandbox.support();
  if (support !== "off" && support.kind === "none") throw new UsageError(`sandbox backend ${config.sandboxBackend} cannot run here: ${support.why}; ${support.fix}`);
}
