import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../exit/usage-error.ts";
import { definitionHash, type Approvals } from "../store/approvals.ts";
import { isInside } from "../files/project-paths.ts";
import { hookDefinitions, notifyDefinitions, type HookDefinition, type HooksConfig, type NotifyEntry } from "./hook-config.ts";
import { readHookFile, type HookFile } from "./hook-file.ts";

/**
 * Where a project brings hooks: shiro's own file, then Claude Code's — the team's `settings.json` and
 * the `settings.local.json` a person keeps uncommitted. All three sit in the project, where the model
 * and a stranger's commit can reach, so each is the project's: approved by the hash of its hooks.
 */
export const PROJECT_HOOK_FILES = [join(".shiro", "settings.json"), join(".claude", "settings.json"), join(".claude", "settings.local.json")] as const;

/** A project's hooks the person has not approved as they are now: shown, and asked about, before any runs. */
export type UnapprovedHooks = { files: string[]; definitions: HookDefinition[]; lines: string[]; approve: () => Promise<void> };

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
 * they named), then the project's files (PROJECT_HOOK_FILES), each only when the person approved that
 * exact definition before (kept by hash in the approvals store), else returned as `unapproved`. Every
 * file's hooks run: a project with hooks in both `.shiro/` and `.claude/` runs both sets, in that order.
 *
 * Every hook runs in the sandbox unless the person's own config says `"sandbox": false` on it. A
 * project's hooks — its settings files, and a `--hooks` file inside the project or an added folder,
 * which the model could have written — never leave it: their `"sandbox": false` is ignored, in one line.
 * A `--hooks` file elsewhere is the person's own: they named it, and the model cannot write there.
 */
export async function loadHooks(opts: LoadHooksOptions): Promise<LoadedHooks> {
  const reach = [opts.root, ...opts.writable].map(realOrSame);
  const named = new Set<string>();
  const definitions = [...hookDefinitions(opts.config, "config.json"), ...notifyDefinitions(opts.notify)];
  for (const file of opts.files) {
    const read = await readHookFile(resolve(file));
    if (!read.ok) throw new UsageError(read.reason === "missing" ? `--hooks ${file}: no such file` : `--hooks: ${read.message} — fix it or leave the flag out`);
    const real = realOrSame(resolve(file));
    named.add(real);
    notRun(read.value, `--hooks ${file}`, opts.warn);
    const defined = hookDefinitions(read.value.hooks, `--hooks ${file}`);
    definitions.push(...(reach.some((dir) => isInside(real, dir)) ? boxed(defined, opts.warn) : defined));
  }
  const waiting: { file: string; asked: HookDefinition[]; hash: string; notRun: string[] }[] = [];
  for (const file of PROJECT_HOOK_FILES) {
    const path = join(opts.root, file);
    // Named on the command line, the project's file is the person's choice for this run: not asked, not run twice.
    if (named.has(realOrSame(path))) continue;
    const read = await readHookFile(path);
    if (!read.ok) {
      if (read.reason === "corrupt") opts.warn(`project hooks skipped: ${read.message}`);
      continue;
    }
    const asked = hookDefinitions(read.value.hooks, file);
    if (asked.length === 0) continue;
    const hash = definitionHash(read.value.raw);
    // Opened only for a project that brings hooks: every other start pays nothing for it.
    const approvals = await opts.approvals();
    if (!approvals.has("hook", opts.root, file, hash)) waiting.push({ file, asked, hash, notRun: read.value.notRun });
    else {
      notRun(read.value, file, opts.warn);
      definitions.push(...boxed(asked, opts.warn));
    }
  }
  if (waiting.length === 0) return { definitions };
  const approvals = await opts.approvals();
  const linesOf = (w: (typeof waiting)[number], indent: string) => [
    ...w.asked.map((d) => `${indent}${d.event}${d.matcher ? ` ${d.matcher}` : ""}: ${d.command}${d.onFailure === "allow" ? " (onFailure allow)" : ""}${d.outside ? ' ("sandbox": false ignored)' : ""}`),
    ...(w.notRun.length ? [`${indent}not run here: ${w.notRun.join("; ")}`] : []),
  ];
  return {
    definitions,
    unapproved: {
      files: waiting.map((w) => w.file),
      definitions: waiting.flatMap((w) => boxed(w.asked, () => {})),
      // One file's hooks as they always were shown; several, each under its file's name.
      lines: waiting.length === 1 ? linesOf(waiting[0]!, "  ") : waiting.flatMap((w) => [`  ${w.file}:`, ...linesOf(w, "    ")]),
      approve: async () => {
        for (const w of waiting) await approvals.add("hook", opts.root, w.file, w.hash);
      },
    },
  };
}

/** What of a Claude Code settings file shiro passes over, said once as it is loaded: nothing is left out without a word. */
function notRun(file: HookFile, source: string, warn: (line: string) => void): void {
  if (file.notRun.length) warn(`${source}: not run here: ${file.notRun.join("; ")}`);
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
