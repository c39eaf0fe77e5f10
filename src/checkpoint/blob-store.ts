import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * File contents by a keyed hash, each stored once across turns, sessions and projects: `blobs/ab/cdef…`,
 * private (folders 0700, files 0600). A checkpoint holds the person's secrets too (undo must not lose
 * a `.env`), so a blob is zstd-compressed and then sealed with AES-256-GCM under the store's own key,
 * and named by an HMAC: no file under $SHIRO_HOME holds a secret's bytes, or a hash a guess could be
 * checked against. (Whoever can read the key file beside them can read them: it guards against a grep,
 * a backup or an index of the home, not against the person's own account.) Writes are temp-then-rename,
 * so a blob that exists is whole; it is checked against its name when read back.
 */
export type BlobStore = {
  readonly dir: string;
  /** Stores `bytes` (once) and returns their hash. */
  put(bytes: Uint8Array): string;
  /** The bytes stored under `hash`, or undefined when the blob is missing or does not match its name. */
  get(hash: string): Uint8Array | undefined;
  /** The hash `bytes` would be stored under (nothing is written). */
  hash(bytes: Uint8Array): string;
};

const NONCE = 12;
const TAG = 16;

// node:crypto costs ~8 ms to load: taken the first time a blob is sealed or opened, which a run whose
// files are all known already never does (and a first look does while the model is being called).
type Ciphers = Pick<typeof import("node:crypto"), "createCipheriv" | "createDecipheriv">;
let ciphers: Ciphers | undefined;
const cipherModule = (): Ciphers => (ciphers ??= require("node:crypto") as Ciphers);
const randomBytes = (n: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(n)));

export function createBlobStore(dir: string, keyPath: string): BlobStore {
  const key = storeKey(keyPath);
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash.slice(2));
  const hash = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256", key).update(bytes).digest("hex");
  const made = new Set<string>();
  return {
    dir,
    hash,
    put(bytes) {
      const name = hash(bytes);
      const path = pathOf(name);
      if (existsSync(path)) return name;
      const folder = join(dir, name.slice(0, 2));
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        made.add(folder);
      }
      const nonce = randomBytes(NONCE);
      const cipher = cipherModule().createCipheriv("aes-256-gcm", key, nonce);
      const sealed = Buffer.concat([nonce, cipher.update(Bun.zstdCompressSync(bytes, { level: 3 })), cipher.final(), cipher.getAuthTag()]);
      const temp = `${path}.${process.pid}.tmp`;
      const fd = openSync(temp, "w", 0o600);
      try {
        for (let done = 0; done < sealed.length; ) done += writeSync(fd, sealed, done);
      } catch (err) {
        closeSync(fd);
        rmSync(temp, { force: true });
        throw err;
      }
      closeSync(fd);
      renameSync(temp, path);
      return name;
    },
    get(name) {
      try {
        const sealed = readFileSync(pathOf(name));
        const decipher = cipherModule().createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
        const packed = Buffer.concat([decipher.update(sealed.subarray(NONCE, sealed.length - TAG)), decipher.final()]);
        const bytes = new Uint8Array(Bun.zstdDecompressSync(packed));
        return hash(bytes) === name ? bytes : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The store's key: 32 random bytes made once (first writer wins), 0600. */
function storeKey(path: string): Buffer {
  try {
    const key = readFileSync(path);
    if (key.length === 32) return key;
  } catch {
    // Not made yet.
  }
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, randomBytes(32));
  } catch (err) {
    rmSync(temp, { force: true }); // a full disk leaves nothing half-written behind
    throw err;
  } finally {
    closeSync(fd);
  }
  try {
    // A link fails where the key exists already: a second shiro making one at once keeps the first's.
    linkSync(temp, path);
  } catch {
    // Made by another process meanwhile.
  }
  rmSync(temp, { force: true });
  const key = readFileSync(path);
  if (key.length !== 32) throw new Error(`${path} is not a checkpoint key (32 bytes); move it away and shiro makes a new one (older checkpoints then cannot be read)`);
  return key;
}
