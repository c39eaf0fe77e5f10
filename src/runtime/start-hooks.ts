import { realpathSync } from "node:fs";
import { createHooks, type Hooks } from "../hooks/create-hooks.ts";
import { loadHooks, PROJECT_HOOKS } from "../hooks/load-hooks.ts";
import type { HookRun } from "../session/hook-run.ts";
import type { Approvals } from "../store/approvals.ts";
import { API_KEY_VAR, envRules, toolEnv } from "../secrets/tool-env.ts";
import { findTrusted } from "../tools/trusted-program.ts";
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
  sessionId: () => string;
  record: (run: Omit<HookRun, "at">) => void;
};

/** The session's hooks: the person's, a `--hooks` file's, and a project's once approved; undefined when there are none. */
export async function startHooks(opts: StartHooksOptions): Promise<Hooks | undefined> {
  const { flags, config, warn } = opts;
  const root = realpathSync(opts.cwd);
  const loaded = await loadHooks({ ...(config.hooks ? { config: config.hooks } : {}), notify: config.notify, files: flags.hooksFiles, root, approvals: opts.approvals, warn });
  const { unapproved } = loaded;
  const approve = unapproved && opts.approve;
  if (unapproved && !approve) warn(`project hooks in ${PROJECT_HOOKS} skipped: not approved (approve them in an interactive shiro here, or run with --hooks ${PROJECT_HOOKS})`);
  if (loaded.definitions.length === 0 && !approve) return undefined;
  const bash = findTrusted("bash");
  // What commands get and the names config lists; the API key only when named in hooksEnv.
  // CLAUDE_PROJECT_DIR too: scripts written for Claude Code find the project by it.
  const env: Record<string, string> = { ...toolEnv(process.env, envRules(config, config.hooksEnv)).env, SHIRO_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root };
  if (config.hooksEnv.includes(API_KEY_VAR) && process.env[API_KEY_VAR]) env[API_KEY_VAR] = process.env[API_KEY_VAR];
  return createHooks({
    definitions: loaded.definitions,
    ...(approve
      ? {
          ready: async () => {
            const yes = await approve([`${PROJECT_HOOKS} brings hooks that would run as you, outside the sandbox:`, ...unapproved.lines]);
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
    cwd: root,
    env,
    sessionId: opts.sessionId,
    record: opts.record,
    warn,
  });
}
