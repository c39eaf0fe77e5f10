import { findTrusted, systemDirs } from "../../process/trusted-program.ts";

/**
 * Where ripgrep is, per list of system folders (one list, so one lookup, in a run): the path, or why
 * there is none. PATH is never searched: grep runs rg outside any sandbox, and an `rg` planted in a
 * project folder on PATH (`node_modules/.bin`, a venv) would run on every search.
 */
const located = new Map<string, { rg: string } | { why: string }>();
let told = false;

/** ripgrep (`rg`) from the system folders, unless it is not there or failed to run earlier in this process. */
export function findRipgrep(dirs: readonly string[] = systemDirs()): { rg: string } | { why: string } {
  const key = dirs.join(":");
  if (!located.has(key)) {
    const found = findTrusted("rg", dirs);
    located.set(key, found.ok ? { rg: found.program.path } : { why: found.why });
  }
  return located.get(key)!;
}

/** After a ripgrep that does not take grep's flags (too old, or something else named rg): never again this run. */
export function ripgrepUnusable(rg: string, dirs: readonly string[] = systemDirs()): void {
  located.set(dirs.join(":"), { why: `${rg} cannot run grep's searches` });
}

/**
 * Tells the person once per run (a print-mode job, a REPL session) that grep searched without ripgrep.
 * The model is not told: the results are the same, only slower, and installing ripgrep is not its call.
 */
export function noticeNoRipgrep(notice: ((text: string) => void) | undefined, why: string): void {
  if (told || !notice) return;
  told = true;
  notice(`grep: ${why}; searching with the built-in scan, which is several times slower on a large tree (install ripgrep to speed it up)`);
}
