import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../exit/usage-error.ts";
import { definitionHash, type Approvals } from "../store/approvals.ts";
import { readJson } from "../store/read-json.ts";
import { hookDefinitions, hookFileSchema, notifyDefinitions, type HookDefinition, type HooksConfig } from "./hook-config.ts";

export const PROJECT_HOOKS = join(".shiro", "settings.json");

/** A project's hooks the person has not approved as they are now: shown, and asked about, before any runs. */
export type UnapprovedHooks = { definitions: HookDefinition[]; lines: string[]; approve: () => Promise<void> };

export type LoadedHooks = { definitions: HookDefinition[]; unapproved?: UnapprovedHooks };

/**
 * The hooks a session may run: the person's (config.json `hooks` and `notify`, each `--hooks` file
 * they named), then the project's `.shiro/settings.json` — only when the person approved that exact
 * definition before (kept by hash in the approvals store), else returned as `unapproved`.
 */
export async function loadHooks(opts: { config?: HooksConfig; notify: readonly string[]; files: readonly string[]; root: string; approvals: () => Promise<Approvals>; warn: (line: string) => void }): Promise<LoadedHooks> {
  const projectFile = join(opts.root, PROJECT_HOOKS);
  const named = new Set<string>();
  const definitions = [...hookDefinitions(opts.config, "config.json"), ...notifyDefinitions(opts.notify)];
  for (const file of opts.files) {
    const read = await readJson(resolve(file), hookFileSchema);
    if (!read.ok) throw new UsageError(read.reason === "missing" ? `--hooks ${file}: no such file` : `--hooks: ${read.message} — fix it or leave the flag out`);
    named.add(realOrSame(resolve(file)));
    definitions.push(...hookDefinitions(read.value.hooks, `--hooks ${file}`));
  }
  // Named on the command line, the project's file is the person's choice for this run: not asked, not run twice.
  if (named.has(realOrSame(projectFile))) return { definitions };
  const read = await readJson(projectFile, hookFileSchema);
  if (!read.ok) {
    if (read.reason === "corrupt") opts.warn(`project hooks skipped: ${read.message}`);
    return { definitions };
  }
  const project = hookDefinitions(read.value.hooks, PROJECT_HOOKS);
  if (project.length === 0) return { definitions };
  const hash = definitionHash(read.value.hooks);
  // Opened only for a project that brings hooks: every other start pays nothing for it.
  const approvals = await opts.approvals();
  if (approvals.has("hook", opts.root, PROJECT_HOOKS, hash)) return { definitions: [...definitions, ...project] };
  return {
    definitions,
    unapproved: {
      definitions: project,
      lines: project.map((d) => `  ${d.event}${d.matcher ? ` ${d.matcher}` : ""}: ${d.command}${d.onFailure === "allow" ? " (onFailure allow)" : ""}`),
      approve: () => approvals.add("hook", opts.root, PROJECT_HOOKS, hash),
    },
  };
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
