import { dirname, join } from "node:path";
import { gitDirsOf } from "../guard/git-dirs.ts";
import { statIfAny } from "../store/stat-if-any.ts";
import { isInside } from "../files/project-paths.ts";
import { gitProtection } from "./git-protection.ts";

/**
 * Where the repository of a linked worktree lives (`git worktree add ../feature`: its `.git` is a file
 * naming `../main/.git/worktrees/feature`), when that lies outside the project — beside it, where the
 * sandbox hides what is next to a project. Undefined for an ordinary repository.
 */
export function worktreeRepository(top: string): string | undefined {
  const dotGit = join(top, ".git");
  if (!statIfAny(dotGit)?.isFile()) return undefined;
  const { common } = gitDirsOf(dotGit);
  return statIfAny(common)?.isDirectory() && !isInside(common, top) ? common : undefined;
}

/**
 * How a command sees that repository: shown read-only, and to plain git (commit, branch) writable as
 * the project's own `.git` is — but for its config, hooks and modules, which stay read-only.
 */
export function worktreeAccess(repository: string | undefined, writes: boolean, plainGit: boolean): { readable: string[]; writable: string[]; readOnly: string[] } {
  if (!repository) return { readable: [], writable: [], readOnly: [] };
  if (!writes || !plainGit) return { readable: [repository], writable: [], readOnly: [] };
  return { readable: [], writable: [repository], readOnly: gitProtection(dirname(repository), [repository], true) };
}
