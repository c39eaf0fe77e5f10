import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * File contents by their SHA-256, each stored once across turns, sessions and projects: `blobs/ab/cdef…`,
 * zstd-compressed, private (folders 0700, files 0600). Writes are temp-then-rename, so a blob that
 * exists is whole; its name is checked against its bytes when read back.
 */
export type BlobStore = {
  readonly dir: string;
  /** Stores `bytes` (once) and returns their hash. */
  put(bytes: Uint8Array): string;
  /** The bytes stored under `hash`, or undefined when the blob is missing or does not match its name. */
  get(hash: string): Uint8Array | undefined;
  has(hash: string): boolean;
};

export const hashOf = (bytes: Uint8Array): string => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

export function createBlobStore(dir: string): BlobStore {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash.slice(2));
  const made = new Set<string>();
  return {
    dir,
    put(bytes) {
      const hash = hashOf(bytes);
      const path = pathOf(hash);
      if (existsSync(path)) return hash;
      const folder = join(dir, hash.slice(0, 2));
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        made.add(folder);
      }
      const temp = `${path}.${process.pid}.tmp`;
      const fd = openSync(temp, "w", 0o600);
      try {
        const packed = Bun.zstdCompressSync(bytes, { level: 3 });
        for (let done = 0; done < packed.length; ) done += writeSync(fd, packed, done);
      } catch (err) {
        closeSync(fd);
        rmSync(temp, { force: true });
        throw err;
      }
      closeSync(fd);
      renameSync(temp, path);
      return hash;
    },
    get(hash) {
      try {
        const bytes = new Uint8Array(Bun.zstdDecompressSync(readFileSync(pathOf(hash))));
        return hashOf(bytes) === hash ? bytes : undefined;
      } catch {
        return undefined;
      }
    },
    has: (hash) => existsSync(pathOf(hash)),
  };
}
