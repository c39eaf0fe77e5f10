import { closeSync, openSync, readSync } from "node:fs";

// A long log is hashed as it is read, a chunk at a time, into one small buffer: a resume need not hold its megabytes.
const CHUNK = 1 << 18;

/** What a cache file's own check is: the hash of its body. */
export const hashOf = (data: Uint8Array): string => Bun.hash(data).toString(36);

/** What the caches beside a log name it by: the hash of its first bytes (wyhash, chained chunk by chunk). */
export function hashOfLog(bytes: Uint8Array): string {
  let h = 0n;
  for (let at = 0; at < bytes.length; at += CHUNK) h = Bun.hash(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)), h) as bigint;
  return h.toString(36);
}

/**
 * The hashes (as `hashOfLog`) of the first `n` bytes of the file at `path`, for each `n` asked (at
 * most its size), read once from the start; undefined when it cannot be read.
 */
export function hashesOfFile(path: string, lengths: readonly number[]): Map<number, string> | undefined {
  const wanted = [...new Set(lengths)].sort((a, b) => a - b);
  const hashes = new Map<number, string>();
  const end = wanted.at(-1) ?? 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = new Uint8Array(Math.min(CHUNK, Math.max(end, 1)));
    let h = 0n;
    let at = 0;
    let next = 0;
    while (next < wanted.length && wanted[next] === 0) hashes.set(wanted[next++]!, h.toString(36));
    while (at < end) {
      const size = Math.min(CHUNK, end - at);
      if (readSync(fd, buffer, 0, size, at) !== size) return undefined;
      // A length inside this chunk ends its hash there; the chain goes on over the whole chunk.
      while (next < wanted.length && wanted[next]! < at + size) hashes.set(wanted[next]!, (Bun.hash(buffer.subarray(0, wanted[next++]! - at), h) as bigint).toString(36));
      h = Bun.hash(buffer.subarray(0, size), h) as bigint;
      at += size;
      while (next < wanted.length && wanted[next] === at) hashes.set(wanted[next++]!, h.toString(36));
    }
    return hashes;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
