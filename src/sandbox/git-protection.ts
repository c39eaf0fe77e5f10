import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { configuredHooks } from "../guard/git-config.ts";
import { isInside } from "../files/project-paths.ts";

// What git runs later, outside any sandbox, from a repository: its config (fsmonitor, pager, aliases,
// includes), its hooks, and its submodules' own configs and hooks.
const CODE = ["config", "hooks", "modules"];
// Made empty when missing, so that even plain git cannot fill them (`git init --template=…` would add hooks).
const MADE_WHEN_MISSING = ["hooks", "modules"];

/**
 * The paths of a writable project that stay read-only: every repository in it (the project's `.git`
 * and nested ones) whole to anything but plain git, and for plain git their config, hooks and modules.
 * A `.git` file (a submodule's `gitdir:` pointer) stays as it is: rewritten, it would point git elsewhere.
 */
export function gitProtection(root: string, gits: readonly string[], plainGit: boolean): string[] {
  const out: string[] = [];
  // Only the writable project's own: a scan of a whole monorepo holds its sibling packages' repositories too.
  for (const git of gits.filter((path) => isInside(path, root))) {
    const st = statSync(git, { throwIfNoEntry: false });
    if (!st) continue;
    // A hooks folder the config names (`.husky`) runs at the next commit like .git/hooks: read-only, made when missing.
    const hooks = st.isDirectory() ? configuredHooks(git) : undefined;
    if (hooks !== undefined && isInside(hooks, root)) {
      if (!existsSync(hooks)) mkdirSync(hooks, { recursive: true });
      out.push(hooks);
    }
    if (!st.isDirectory() || !plainGit) {
      out.push(git);
      continue;
    }
    for (const name of MADE_WHEN_MISSING) {
      const dir = join(git, name);
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    }
    out.push(...CODE.map((name) => join(git, name)).filter((path) => existsSync(path)));
  }
  return out;
}
