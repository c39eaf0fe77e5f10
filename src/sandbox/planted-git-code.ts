import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { configSettings } from "../guard/git-config.ts";
import { gitCode } from "../guard/git-code.ts";

/**
 * Why a git repository a command made (`dir/.git`, a folder or a `gitdir:` file) would run code when
 * the person next uses git, outside any sandbox: a config setting git runs or that points at code, or
 * a hook. What `git init` and `git clone` write (sample hooks, core and remote settings) is no reason.
 */
export function plantedGitCode(gitPath: string): string | undefined {
  const st = statSync(gitPath, { throwIfNoEntry: false });
  if (!st) return undefined;
  let gitDir = gitPath;
  if (st.isFile()) {
    const target = /^gitdir:\s*(.+)$/m.exec(safeRead(gitPath))?.[1]?.trim();
    if (!target) return undefined;
    gitDir = resolve(dirname(gitPath), target);
  }
  const settings = configSettings(safeRead(join(gitDir, "config")));
  // core.worktree points git at another tree, whose own repository then decides what runs.
  const runs = settings.filter((s) => s.key === "core.worktree" || gitCode({ sub: undefined, args: [], settings: [s], dir: "." }).length > 0);
  if (runs.length) return `its config sets ${[...new Set(runs.map((s) => s.key))].join(", ")}`;
  const hooks = safeList(join(gitDir, "hooks")).filter((name) => !name.endsWith(".sample"));
  return hooks.length ? `it holds the hook${hooks.length > 1 ? "s" : ""} ${hooks.join(", ")}` : undefined;
}

const safeRead = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};
const safeList = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
