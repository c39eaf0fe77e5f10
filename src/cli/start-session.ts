import { homedir } from "node:os";
import { join } from "node:path";
import { createSandbox } from "../sandbox/create-sandbox.ts";
import type { Authorize } from "../agent/run-tool-call.ts";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import { createAuthorize } from "../guard/authorize.ts";
import { createReadCheck } from "../guard/read-check.ts";
import { SECRET_GLOBS } from "../guard/secret-globs.ts";
import { createWriteCheck } from "../guard/write-check.ts";
import { permissionsSchema } from "../guard/rules.ts";
import { SessionAllows } from "../guard/session-allows.ts";
import { livePluginChecks } from "../registry/live-plugin-checks.ts";
import { liveSkills } from "../registry/live-skills.ts";
import { issuePath } from "../store/read-json.ts";
import { createSessionStore } from "../store/session-store.ts";
import { createOpenAIStream } from "../wire/openai-stream.ts";
import { createModelLister } from "../wire/list-models.ts";
import { createRedactor } from "../agent/redact.ts";
import { API_KEY_VAR, toolEnv } from "../tools/tool-env.ts";
import type { Flags } from "./args.ts";
import { UsageError } from "./usage-error.ts";
import type { Config } from "./config.ts";
import { createRuntime, type Runtime } from "../runtime/runtime.ts";
import { loadPrompt } from "../runtime/load-prompt.ts";
import { openById, openSession, resolveId } from "./open-session.ts";

export type StartOptions = {
  flags: Flags;
  config: Config & { apiKey: string };
  cwd: string;
  warn: (line: string) => void;
  /** The REPL asks the person; print mode has no `ask`, so an ask becomes a denial. */
  ask?: (request: AskRequest) => Promise<AskAnswer>;
  interruptSignal?: () => AbortSignal;
};

/** Opens (or resumes) a session and wires its prompt, gate, model stream and store into a runtime. */
export async function startSession(opts: StartOptions): Promise<Runtime> {
  const { flags, config, cwd, warn } = opts;
  const rules = permissionsSchema.safeParse(config.permissions);
  if (!rules.success) {
    const issue = rules.error.issues[0]!;
    throw new UsageError(`permissions${issuePath(issue.path)} in ${join(config.home, "config.json")}: ${issue.message}`);
  }
  const store = createSessionStore(join(config.home, "sessions"));
  const session = await openSession(store, { flags, cwd, model: config.model, warn });
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
  const reloadPrompt = () => loadPrompt({ home: config.home, cwd, noInstructions: flags.noInstructions, noMemory: flags.noMemory, notebook, skills, warn });
  const [prompt, plugins] = await Promise.all([reloadPrompt(), livePluginChecks(config.home, warn)]);
  const sandbox = createSandbox({ mode: config.sandbox, network: config.network, home: homedir(), shiroHome: config.home, warn });
  const gate = createAuthorize({ rules: rules.data, extraChecks: plugins.checks, yolo: flags.yolo, sessionAllows: new SessionAllows(), ask: opts.ask, confine: sandbox.canConfine });
  // A plugin installed mid-session (/registry add, or another terminal) guards the very next call.
  const authorize: Authorize = async (request) => {
    await plugins.refresh();
    return gate(request);
  };
  // Tools never see a secret variable, and no output shows one's value: not the model, nor a person, nor a file.
  const secrets = toolEnv(process.env, config.envPass);
  const redactor = createRedactor([{ name: API_KEY_VAR, value: config.apiKey }, ...secrets.hidden]);
  const runtime: Runtime = createRuntime({
    config,
    cwd,
    session,
    store,
    prompt,
    reloadPrompt,
    open: async (idOrPrefix) => openById(store, await resolveId(store, idOrPrefix, warn), warn),
    authorize,
    stream: createOpenAIStream({ apiKey: config.apiKey, baseURL: config.baseUrl, idleTimeoutMs: config.idleTimeoutMs }),
    listModels: createModelLister({ apiKey: config.apiKey, baseURL: config.baseUrl }),
    warn,
    interruptSignal: opts.interruptSignal,
    sandbox: sandbox.at,
    readDenied: createReadCheck({ rules: rules.data, extraChecks: plugins.checks }),
    secretGlobs: SECRET_GLOBS,
    writeRefused: createWriteCheck(),
    toolEnv: secrets.env,
    redactor,
  });
  return runtime;
}
