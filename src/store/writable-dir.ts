import { existsSync, mkdirSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A file system error (a full disk, a read-only home, no permission), as opposed to a bug. */
export const isFsError = (err: unknown): err is NodeJS.ErrnoException =>
  typeof (err as NodeJS.ErrnoException | undefined)?.code === "string" && typeof (err as NodeJS.ErrnoException).syscall === "string";

/**
 * The file system refused a write under `dir`: it is full, read-only, over quota — or, for an error
 * naming a path there, denied permission. A project file that cannot be read is no such thing, nor is
 * a file another shiro removed meanwhile (ENOENT, EEXIST): a race to warn about, not a home that cannot
 * be written — taken for one, the whole run went on unsaved.
 */
export const refusedWrite = (err: unknown, dir: string): err is NodeJS.ErrnoException =>
  isFsError(err) && (FULL_OR_READ_ONLY.has(err.code!) || (DENIED.has(err.code!) && err.path !== undefined && (err.path === dir || err.path.startsWith(`${dir}/`))));

const FULL_OR_READ_ONLY = new Set(["ENOSPC", "EDQUOT", "EROFS"]);
const DENIED = new Set(["EACCES", "EPERM"]);

const WORDS: Record<string, string> = {
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
};

/** Makes `folder` (0700); false when another process made it meanwhile (two shiro starting at once in a new home): it is theirs, and fine. */
function makeFolder(folder: string): boolean {
  try {
    mkdirSync(folder, { mode: 0o700 });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST" && statSync(folder).isDirectory()) return false;
    throw err;
  }
}

/** A file system error in a few words: "read-only file system", "no space left on device". */
export const fsErrorWords = (err: NodeJS.ErrnoException): string => WORDS[err.code!] ?? err.message;

/**
 * Why nothing can be saved in `dir`, or undefined when a file can be written there. The folder (and
 * any missing above it) is made 0700 as it will be used; a byte is written beside what is there and
 * removed. When that fails nothing is left behind: not the probe, nor a folder it made.
 */
export function cannotWrite(dir: string): string | undefined {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  const made: string[] = [];
  const probe = join(dir, `.write-check-${process.pid}-${Bun.randomUUIDv7().slice(-8)}`);
  try {
    for (const folder of missing) {
      if (makeFolder(folder)) made.push(folder);
    }
    // A full disk takes the name and refuses the byte: the empty file is removed all the same.
    try {
      writeFileSync(probe, "x", { mode: 0o600, flag: "wx" });
    } finally {
      rmSync(probe, { force: true });
    }
    return undefined;
  } catch (err) {
    if (!isFsError(err)) throw err;
    for (const folder of made.reverse())
      try {
        rmdirSync(folder);
      } catch {
        // Not ours to force.
      }
    return fsErrorWords(err);
  }
}
