import { constants, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { AtCalls, Dir } from "./at-calls-contract.ts";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = constants;
const at = (dir: Dir, name: string) => join(dir as string, name);
const fail = (code: string, call: string, path: string) => Object.assign(new Error(`${code}: ${call} ${JSON.stringify(path)}`), { code, syscall: call });

/**
 * The `*at` calls by name, for Windows, where bun:ffi has no libc to call: each name is checked with
 * lstat and then used, so a link swapped in between (symlinks there need Developer Mode or an
 * administrator) is not caught as it is on Linux and macOS. The walk's own checks still apply.
 */
export const namedAt: AtCalls = {
  openRoot: (path) => path,
  openDir(dir, name) {
    const info = lstatSync(at(dir, name));
    if (!info.isDirectory()) throw fail(info.isSymbolicLink() ? "ELOOP" : "ENOTDIR", "open", at(dir, name));
    return at(dir, name);
  },
  makeDir: (dir, name) => mkdirSync(at(dir, name)),
  readLink: (dir, name) => (lstatSync(at(dir, name)).isSymbolicLink() ? readlinkSync(at(dir, name)) : undefined),
  openRead(dir, name) {
    if (lstatSync(at(dir, name)).isSymbolicLink()) throw fail("ELOOP", "open", at(dir, name));
    return openSync(at(dir, name), O_RDONLY);
  },
  create: (dir, name, mode) => openSync(at(dir, name), O_WRONLY | O_CREAT | O_EXCL, mode),
  rename: (dir, from, to) => renameSync(at(dir, from), at(dir, to)),
  unlink: (dir, name) => unlinkSync(at(dir, name)),
  close: () => {},
};
