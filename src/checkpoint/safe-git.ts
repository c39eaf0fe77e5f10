import { findTrusted } from "../process/trusted-program.ts";

// Found once: the checkpoints of a run ask many times (the first look, each change to a referenced file, undo).
let trusted: string | null | undefined;

/**
 * How checkpoints run git: outside any sandbox, so only to read, and so that nothing anyone configured
 * can run. The system's own git (never one on PATH: a project's `node_modules/.bin` could plant it);
 * no system or global config (the repository's own is what tells git how to read it); its fsmonitor
 * hook turned off (the one setting these commands — rev-parse, ls-files, ls-tree, cat-file without
 * `--filters` — would run); no optional locks (not even an index refresh writes `.git`); no replace
 * refs (an object id reads as that object); and no network (a partial clone's missing object is not
 * fetched: the command fails and the file is read from disk instead). Undefined without a trusted git.
 */
export function safeGit(cwdOrGitDir: { cwd: string } | { gitDir: string }, args: readonly string[]): { cmd: string[]; env: Record<string, string> } | undefined {
  trusted ??= ((found) => (found.ok ? found.program.path : null))(findTrusted("git"));
  if (!trusted) return undefined;
  const where = "cwd" in cwdOrGitDir ? ["-C", cwdOrGitDir.cwd] : [`--git-dir=${cwdOrGitDir.gitDir}`];
  return {
    cmd: [trusted, "--no-pager", "-c", "core.fsmonitor=false", "-c", "protocol.allow=never", ...where, ...args],
    env: {
      PATH: "/usr/bin:/bin",
      LC_ALL: "C",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_NO_REPLACE_OBJECTS: "1",
      GIT_NO_LAZY_FETCH: "1",
      GIT_TERMINAL_PROMPT: "0",
    },
  };
}
