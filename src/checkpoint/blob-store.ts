import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { readGitBlobs } from "./git-objects.ts";

/**
 * File contents by a keyed hash, each stored once across turns, sessions and projects: `blobs/ab/cdef…`,
 * private (folders 0700, files 0600). A checkpoint holds the person's secrets too (undo must not lose
 * a `.env`), so a blob is zstd-compressed and then sealed with AES-256-GCM under the store's own key,
 * and named by an HMAC: no file under $SHIRO_HOME holds a secret's bytes, or a hash a guess could be
 * checked against. (Whoever can read the key file beside them can read them: it guards against a grep,
 * a backup or an index of the home, not against the person's own account.) Writes are temp-then-rename,
 * so a blob that exists is whole; it is checked against its name when read back.
 *
 * Bytes a git repository holds as a blob of HEAD need not be copied: a checkpoint keeps beside their
 * name a pointer to them instead (`Kept.git`: the repository's object store and the blob's id, sealed
 * the same way — a blob id is itself a hash a guess could be checked against), and they are read back
 * with git and checked against the name like a blob.
 */
export type BlobStore = {
  readonly dir: string;
  /** Stores `bytes` (once) and returns their hash. */
  put(bytes: Uint8Array): string;
  /** The pointer a checkpoint keeps for bytes git holds, sealed. */
  pointTo(at: GitPointer): string;
  /** The bytes stored under `hash`, or undefined when the blob is missing or does not match its name. */
  get(hash: string): Uint8Array | undefined;
  /**
   * The bytes of each file by its name: its blob, else what its pointer names, read back from the
   * repository (one git per repository) and checked against the name. Those neither gives are left out.
   */
  getAll(files: Iterable<StoredFile>): Map<string, Uint8Array>;
  /** The hash `bytes` would be stored under (nothing is written). */
  hash(bytes: Uint8Array): string;
};

/** Where bytes git holds are: a repository's object store (absolute) and the blob's id. */
export type GitPointer = { gitDir: string; oid: string };
/** A file as a checkpoint names it: its hash, size, and a pointer when git holds it. */
export type StoredFile = { hash: string; size: number; git?: string };

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
  const seal = (plain: Uint8Array) => {
    const nonce = randomBytes(NONCE);
    const cipher = cipherModule().createCipheriv("aes-256-gcm", key, nonce);
    return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  const unseal = (sealed: Buffer) => {
    const decipher = cipherModule().createDecipheriv("aes-256-gcm", key, sealed.subarray(0, NONCE));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    return Buffer.concat([decipher.update(sealed.subarray(NONCE, sealed.length - TAG)), decipher.final()]);
  };
  const get = (name: string) => {
    try {
      const bytes = new Uint8Array(Bun.zstdDecompressSync(unseal(readFileSync(pathOf(name)))));
      return hash(bytes) === name ? bytes : undefined;
    } catch {
      return undefined;
    }
  };
  const pointer = (git: string): GitPointer | undefined => {
    try {
      return JSON.parse(unseal(Buffer.from(git, "base64")).toString("utf8")) as GitPointer;
    } catch {
      return undefined; // another store's, or tampered with: it names nothing
    }
  };
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
      const sealed = seal(Bun.zstdCompressSync(bytes, { level: 3 }));
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
    pointTo: (at) => seal(Buffer.from(JSON.stringify(at))).toString("base64"),
    get,
    getAll(files) {
      const found = new Map<string, Uint8Array>();
      const fromGit = new Map<string, { name: string; oid: string; size: number }[]>();
      const asked = new Set<string>();
      for (const { hash: name, size, git } of files) {
        if (asked.has(name)) continue;
        asked.add(name);
        const bytes = get(name);
        const at = bytes || !git ? undefined : pointer(git);
        if (bytes) found.set(name, bytes);
        else if (at) fromGit.get(at.gitDir)?.push({ name, oid: at.oid, size }) ?? fromGit.set(at.gitDir, [{ name, oid: at.oid, size }]);
      }
      for (const [gitDir, wanted] of fromGit) {
        const blobs = readGitBlobs(gitDir, wanted);
        for (const { name, oid } of wanted) {
          const bytes = blobs.get(oid);
          if (bytes && hash(bytes) === name) found.set(name, bytes);
        }
      }
      return found;
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
