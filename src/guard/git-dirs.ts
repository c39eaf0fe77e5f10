import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { statIfAny } from "../store/stat-if-any.ts";

/**
 * A repository's own folder and the one its worktrees share (where `config` and the objects are): `.git`
 * itself, or where a `.git` file's `gitdir:` points (a linked worktree, a submodule) and its `commondir`.
 */
export function gitDirsOf(dotGit: string): { gitDir: string; common: string } {
  const link = textOf(dotGit)?.match(/^gitdir: (.+)$/m)?.[1];
  const gitDir = link ? resolve(dotGit, "..", link.trim()) : dotGit;
  return { gitDir, common: resolve(gitDir, textOf(join(gitDir, "commondir"))?.trim() ?? ".") };
}

// Asked often of files that are not there (a `.git` folder read as a `gitdir:` file): a stat first, as a failed read costs an exception.
export function textOf(path: string): string | undefined {
  if (!statIfAny(path)?.isFile()) return undefined;
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
