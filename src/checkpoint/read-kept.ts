import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join } from "node:path";
import { isInside } from "../files/project-paths.ts";
import type { BlobStore } from "./blob-store.ts";
import { MAX_KEPT_BYTES, type Kept } from "./kept.ts";

/** The stat fields that tell a file unchanged without reading it (ctime: no one can set it back). */
export const statKey = (s: Stats): string => `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}`;

/**
 * A path of the project (`root` a real path, no link in it) as a checkpoint keeps it, its bytes put in `blobs`. Opened without following a link, and only if it really lies inside the project: a
 * name swapped for a link meanwhile is never read through. Undefined when it is gone or no file.
 */
export function readKept(root: string, rel: string, stats: Stats, blobs: Pick<BlobStore, "put">, maxBytes = MAX_KEPT_BYTES): Kept | undefined {
  const abs = join(root, rel);
  const mode = stats.mode & 0o7777;
  try {
    if (stats.isSymbolicLink()) return { kind: "link", target: readlinkSync(abs) };
    if (!stats.isFile()) return undefined;
    if (stats.size > maxBytes) return { kind: "big", size: stats.size, mode };
    const fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const now = fstatSync(fd);
      // Where the open file really is (Linux names it): a folder on the way swapped for a link is caught here.
      const real = process.platform === "linux" ? readlinkSync(`/proc/self/fd/${fd}`) : abs;
      if (!now.isFile() || !isInside(real, root)) return undefined;
      if (now.size > maxBytes) return { kind: "big", size: now.size, mode: now.mode & 0o7777 };
      const bytes = readFileSync(fd);
      return { kind: "file", hash: blobs.put(bytes), size: bytes.length, mode: now.mode & 0o7777 };
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The path as it is on disk now, read afresh (undo compares it with what a turn left); hashed as `blobs` names, nothing stored. */
export function keptOnDisk(root: string, rel: string, blobs: Pick<BlobStore, "hash">): Kept | undefined {
  let stats: Stats;
  try {
    stats = lstatSync(join(root, rel));
  } catch {
    return undefined;
  }
  return readKept(root, rel, stats, { put: blobs.hash });
}
