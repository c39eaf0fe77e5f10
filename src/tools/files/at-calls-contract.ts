/**
 * The `*at` system calls the write tools go through: every name is looked up in a folder already held
 * open, so a folder swapped for a symlink after it was opened cannot redirect what comes next. `Dir` is
 * a file descriptor on Linux and macOS (libc-at.ts) and the folder's path on Windows (named-at.ts).
 * Failures throw errors whose `code` is the errno name (ENOENT, ENOTDIR, ELOOP, EEXIST…), as node:fs does.
 */
export type Dir = number | string;

export type AtCalls = {
  /** Opens a folder the walk starts from, by its path (the project root, or `/`). */
  openRoot(path: string): Dir;
  /** Opens the folder `name` in `dir`, refusing a symlink (ENOTDIR or ELOOP) and anything not a folder. */
  openDir(dir: Dir, name: string): Dir;
  /** Creates the folder `name` (0777 less the umask); EEXIST when something is already there. */
  makeDir(dir: Dir, name: string): void;
  /** The target of the symlink `name`, or undefined when `name` is not one; ENOENT when nothing is there. */
  readLink(dir: Dir, name: string): string | undefined;
  /** An fd reading `name`, refusing a symlink (ELOOP); non-blocking, so a FIFO cannot hang the open. */
  openRead(dir: Dir, name: string): number;
  /** An fd writing the new file `name`, created with `mode` (EEXIST when it exists; never through a link). */
  create(dir: Dir, name: string, mode: number): number;
  /** Renames `from` to `to` within `dir`, replacing `to` (a symlink there is replaced, not followed). */
  rename(dir: Dir, from: string, to: string): void;
  unlink(dir: Dir, name: string): void;
  close(dir: Dir): void;
};
