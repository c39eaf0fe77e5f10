import { realpathSync } from "node:fs";
import { createHooks, type Hooks } from "../hooks/create-hooks.ts";
import { loadHooks, type LoadedHooks } from "../hooks/load-hooks.ts";
import type { Grant } from "../session/sandbox-level.ts";
import type { CommandSandbox } from "../process/prepared-command.ts";
import type { Approvals } from "../store/approvals.ts";
import { API_KEY_VAR, envRules, toolEnv } from "../secrets/tool-env.ts";
import { findTrusted } from "../process/trusted-program.ts";
import type { Config, Flags } from "./settings.ts";

export type StartHooksOptions = {
  flags: Flags;
  config: Config;
  cwd: string;
  /** Where a project's hooks approved before are found, and a new approval kept (read on first need). */
  approvals: () => Promise<Approvals>;
  warn: (line: string) => void;
  /** Shows a project's unapproved hooks and asks (the REPL); without it they are skipped. */
  approve?: (lines: readonly string[]) => Promise<boolean>;
  /** The run's command sandbox: hooks run in it as commands nobody approved (hook-box.ts says how far each may write). */
  sandbox: { canConfine(): Promise<boolean>; at(grant: Grant): Promise<CommandSandbox> };
};

/** The run's hooks: the person's, a `--hooks` file's, and a project's once approved; undefined when there are none. */
export async function startHooks(opts: StartHooksOptions): Promise<Hooks | undefined> {
  const { flags, config, warn } = opts;
  const root = realpathSync(opts.cwd);
  const loaded = await loadHooks({ ...(config.hooks ? { config: config.hooks } : {}), notify: config.notify, files: flags.hooksFiles, root, writable: config.writableDirs, approvals: opts.approvals, warn });
  const { definitions, unapproved } = await inTheBox(loaded, opts.sandbox, warn);
  const approve = unapproved && opts.approve;
  if (unapproved && !approve) warn(`project hooks in ${unapproved.files.join(", ")} skipped: not approved (approve them in an interactive shiro here, or run with ${unapproved.files.map((f) => `--hooks ${f}`).join(" ")})`);
  if (definitions.length === 0 && !approve) return undefined;
  const bash = findTrusted("bash");
  // What commands get and the names config lists; the API key only when named in hooksEnv.
  // CLAUDE_PROJECT_DIR too: scripts written for Claude Code find the project by it.
  const env: Record<string, string> = { ...toolEnv(process.env, envRules(config, config.hooksEnv)).env, SHIRO_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root };
  if (config.hooksEnv.includes(API_KEY_VAR) && process.env[API_KEY_VAR]) env[API_KEY_VAR] = process.env[API_KEY_VAR];
  return createHooks({
    definitions,
    ...(approve
      ? {
          ready: async () => {
            const files = unapproved.files.join(" and ");
            const yes = await approve([`${files} ${unapproved.files.length > 1 ? "bring" : "brings"} hooks; they would run in the sandbox, as commands do (PostToolUse ones may write the project):`, ...unapproved.lines]);
            if (!yes) {
              warn(`project hooks skipped for this session (asked again next time)`);
              return [];
            }
            await unapproved.approve();
            return unapproved.definitions;
          },
        }
      : {}),
    bash: bash.ok ? { path: bash.program.path } : { why: bash.why },
    // As a command nobody approved: the network only when the run gives every command it (--network).
    sandbox: async (level) => ((await opts.sandbox.canConfine()) ? opts.sandbox.at({ level, byPerson: false }) : undefined),
    cwd: root,
    env,
    warn,
  });
}

/** A project's hooks never run bare: with no sandbox in force they are not run, nor asked about, said in one line. */
async function inTheBox(loaded: LoadedHooks, sandbox: StartHooksOptions["sandbox"], warn: (line: string) => void): Promise<LoadedHooks> {
  const project = loaded.definitions.filter((d) => d.project);
  if ((project.length === 0 && !loaded.unapproved) || (await sandbox.canConfine())) return loaded;
  const sources = [...new Set([...project.map((d) => d.source), ...(loaded.unapproved?.files ?? [])])];
  warn(`project hooks (${sources.join(", ")}) not run: a project's hooks run only in the sandbox, and commands run without one here`);
  return { definitions: loaded.definitions.filter((d) => !d.project) };
}
