/** Where ripgrep is, per PATH the tools ran with (null: not there, or found unusable); looked up once each. */
const located = new Map<string, string | null>();
let told = false;

/** ripgrep (`rg`) on the tools' PATH, unless it was not there or failed to run earlier in this process. */
export function findRipgrep(PATH = ""): string | undefined {
  if (!located.has(PATH)) located.set(PATH, Bun.which("rg", { PATH }));
  return located.get(PATH) ?? undefined;
}

/** After a ripgrep that does not take grep's flags (too old, or something else named rg): never again this run. */
export function ripgrepUnusable(PATH = ""): void {
  located.set(PATH, null);
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
