import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../exit/usage-error.ts";
import { definitionHash, type Approvals } from "../store/approvals.ts";
import { readJson } from "../store/read-json.ts";
import { isInside } from "../tools/resolve-path.ts";
import { hookDefinitions, hookFileSchema, notifyDefinitions, type HookDefinition, type HooksConfig, type NotifyEntry } from "./hook-config.ts";

export const PROJECT_HOOKS = join(".shiro", "settings.json");

/** A project's hooks the person has not approved as they are now: shown, and asked about, before any runs. */
export type UnapprovedHooks = { definitions: HookDefinition[]; lines: string[]; approve: () => Promise<void> };

export type LoadedHooks = { definitions: HookDefinition[]; unapproved?: UnapprovedHooks };

export type LoadHooksOptions = {
  config?: HooksConfig;
  notify: readonly NotifyEntry[];
  files: readonly string[];
  root: string;
  /** What the model can write besides the project (`--add-dir`): a `--hooks` file there is a project's too. */
  writable: readonly string[];
  approvals: () => Promise<Approvals>;
  warn: (line: string) => void;
};

/**
 * The hooks a session may run: the person's (config.json `hooks` and `notify`, each `--hooks` file
 * they named), then the project's `.shiro/settings.json` — only when the person approved that exact
 * definition before (kept by hash in the approvals store), else returned as `unapproved`.
 *
 * Every hook runs in the sandbox unless the person's own config says `"sandbox": false` on it. A
 * project's hooks — its settings file, and a `--hooks` file inside the project or an added folder,
 * which the model could have written — never leave it: their `"sandbox": false` is ignored, in one line.
 * A `--hooks` file elsewhere is the person's own: they named it, and the model cannot write there.
 */
export async function loadHooks(opts: LoadHooksOptions): Promise<LoadedHooks> {
  const projectFile = join(opts.root, PROJECT_HOOKS);
  const reach = [opts.root, ...opts.writable].map(realOrSame);
  const named = new Set<string>();
  const definitions = [...hookDefinitions(opts.config, "config.json"), ...notifyDefinitions(opts.notify)];
  for (const file of opts.files) {
    const read = await readJson(resolve(file), hookFileSchema);
    if (!read.ok) throw new UsageError(read.reason === "missing" ? `--hooks ${file}: no such file` : `--hooks: ${read.message} — fix it or leave the flag out`);
    const real = realOrSame(resolve(file));
    named.add(real);
    const defined = hookDefinitions(read.value.hooks, `--hooks ${file}`);
    definitions.push(...(reach.some((dir) => isInside(real, dir)) ? boxed(defined, opts.warn) : defined));
  }
  // Named on the command line, the project's file is the person's choice for this run: not asked, not run twice.
  if (named.has(realOrSame(projectFile))) return { definitions };
  const read = await readJson(projectFile, hookFileSchema);
  if (!read.ok) {
    if (read.reason === "corrupt") opts.warn(`project hooks skipped: ${read.message}`);
    return { definitions };
  }
  const asked = hookDefinitions(read.value.hooks, PROJECT_HOOKS);
  if (asked.length === 0) return { definitions };
  const hash = definitionHash(read.value.hooks);
  // Opened only for a project that brings hooks: every other start pays nothing for it.
  const approvals = await opts.approvals();
  if (approvals.has("hook", opts.root, PROJECT_HOOKS, hash)) return { definitions: [...definitions, ...boxed(asked, opts.warn)] };
  const project = boxed(asked, () => {});
  return {
    definitions,
    unapproved: {
      definitions: project,
      lines: asked.map((d) => `  ${d.event}${d.matcher ? ` ${d.matcher}` : ""}: ${d.command}${d.onFailure === "allow" ? " (onFailure allow)" : ""}${d.outside ? ' ("sandbox": false ignored)' : ""}`),
      approve: () => approvals.add("hook", opts.root, PROJECT_HOOKS, hash),
    },
  };
}

/**
 * A project's hooks as they run: in the sandbox, always. What they run — a Makefile, a sourced script,
 * package.json's scripts — is the model's to rewrite, so approving their definition cannot let them out.
 */
function boxed(definitions: readonly HookDefinition[], warn: (line: string) => void): HookDefinition[] {
  const asked = definitions.filter((d) => d.outside);
  if (asked.length) warn(`${asked[0]!.source}: "sandbox": false ignored on ${asked.map((d) => `\`${d.command}\``).join(", ")}: a project's hooks always run in the sandbox`);
  return definitions.map(({ outside: _, ...d }) => ({ ...d, project: true as const }));
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
