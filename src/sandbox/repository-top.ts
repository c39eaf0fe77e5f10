import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../files/project-paths.ts";

/**
 * The top of the git repository holding `root` when shiro was started in a folder below it (a package
 * of a monorepo): commands see that whole repository, read-only above `root`, as a build needs its
 * hoisted `node_modules` and shared configs. `root` itself otherwise — and when the repository is a home
 * (a dotfiles repo) or holds one: a home stays hidden.
 */
export function repositoryTop(root: string, homes: readonly string[]): string {
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir === root || homes.some((home) => isInside(home, dir)) ? root : dir;
    if (dirname(dir) === dir) return root;
  }
}
