import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { statIfAny } from "../store/stat-if-any.ts";
import { gitDirsOf } from "./git-dirs.ts";

/** `[section "sub"]` + `key = value` lines → `section.sub.key` settings, as git reads them (loosely: enough to judge). */
export function configSettings(text: string): { key: string; value: string }[] {
  const settings: { key: string; value: string }[] = [];
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.replace(/^\s+/, "");
    const header = /^\[\s*([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      section = header[2] === undefined ? header[1]!.toLowerCase() : `${header[1]!.toLowerCase()}.${header[2]}`;
      continue;
    }
    const pair = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line.replace(/\s*[#;].*$/, ""));
    if (pair && section) settings.push({ key: `${section}.${pair[1]!.toLowerCase()}`, value: (pair[2] ?? "true").replace(/^"(.*)"$/, "$1") });
  }
  return settings;
}

// Read again only when the config changes: the file tools ask on every write.
const hooksCache = new Map<string, { stamp: string; hooks: string | undefined }>();

/**
 * The folder a repository's `core.hooksPath` names (`.husky`, `.githooks`), absolute, or undefined: what
 * is written there runs at the person's next commit, as `.git/hooks` would (for husky's `.husky/_`, all
 * of `.husky`, whose scripts the stubs run). `dotGit` is the repository's
 * `.git` folder; a relative path is taken from its work tree, as git does.
 */
export function configuredHooks(dotGit: string): string | undefined {
  // A linked worktree's `.git` is a file: the config is its repository's own.
  const config = join(gitDirsOf(dotGit).common, "config");
  const st = statIfAny(config);
  if (!st?.isFile()) return undefined;
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const cached = hooksCache.get(config);
  if (cached?.stamp === stamp) return cached.hooks;
  let text = "";
  try {
    text = readFileSync(config, "utf8");
  } catch {
    // unreadable: no hooks path known
  }
  const value = configSettings(text).findLast((s) => s.key === "core.hookspath")?.value;
  // `~/…` lies in the home, outside any project (and the home is the sandbox's to hide): no folder of the project's.
  const named = value && !value.startsWith("~") ? resolve(dirname(dotGit), value) : undefined;
  // husky 9 points git at `.husky/_`, whose stubs run the scripts one folder up (`.husky/pre-commit`).
  const hooks = named !== undefined && basename(named) === "_" ? dirname(named) : named;
  hooksCache.set(config, { stamp, hooks });
  return hooks;
}
