import { gitInvocation } from "./git-invocation.ts";
import { displayPath, resolvePath, type PathEnv } from "./resolve-path.ts";
import { globMayNameSecret, isSecret } from "./secret-path.ts";
import type { ShellCommand } from "./shell-commands.ts";

// Subcommands that print (or check out) what a file held at some commit; the rest name files without showing them.
const SHOWS_CONTENT = new Set([
  "show", "cat-file", "log", "whatchanged", "diff", "diff-tree", "diff-index", "diff-files", "difftool", "range-diff", "format-patch",
  "archive", "grep", "blame", "annotate", "stash", "checkout", "restore",
]);

/**
 * The secret file a `git` command would show out of history, as shown to a person: `git show HEAD:.env`,
 * `git cat-file -p :0:.env`, `git log -p -- .env`, `git archive HEAD id_rsa`, a pathspec glob like
 * `'*.pem'`. Judged by the name alone (what the file held at that commit may be live still); a commit
 * named by its id has no path to judge, and value redaction is what covers it.
 */
export function gitSecretRead(cmd: ShellCommand, env: PathEnv): string | undefined {
  if (cmd.name !== "git") return undefined;
  const { sub, args, dir } = gitInvocation(cmd.words);
  if (sub === undefined || !SHOWS_CONTENT.has(sub.toLowerCase())) return undefined;
  const cwd = resolvePath(dir, env, cmd.cwd).absolute;
  let pathsOnly = false;
  for (const arg of args) {
    if (!pathsOnly && arg === "--") pathsOnly = true;
    if (arg === "--" || (!pathsOnly && arg.startsWith("-"))) continue;
    // `rev:path` and `:stage:path` name a file in a commit or the index; anything else may be a path.
    const inTree = pathsOnly ? undefined : /^[^:]*:(?:[0-3]:)?(.+)$/.exec(arg)?.[1];
    const path = (inTree ?? arg).replace(/^:\((?:[a-z,]+)\)/, "");
    const resolved = resolvePath(path, env, cwd);
    if (isSecret(resolved, env.secrets)) return inTree !== undefined ? arg : displayPath(resolved.real, env);
    if (globMayNameSecret(path, env.secrets)) return path;
  }
  return undefined;
}
