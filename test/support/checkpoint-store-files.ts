import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createBlobStore } from "../../src/checkpoint/blob-store.ts";
import type { TurnRecord } from "../../src/checkpoint/turn-record.ts";

/**
 * What the checkpoint store under `shiroHome` holds on disk: the names of its blobs (copies of file
 * contents) and their bytes on disk, the turn records, and `nameOf`, the name the store gives bytes
 * (an HMAC under its key), to tell which file a blob is a copy of.
 */
export function checkpointStoreFiles(shiroHome: string) {
  const dir = join(shiroHome, "checkpoints");
  const list = (sub: string) => (existsSync(join(dir, sub)) ? readdirSync(join(dir, sub), { recursive: true, encoding: "utf8" }) : []);
  const blobs = list("blobs").filter((p) => /^[0-9a-f]{2}\/[0-9a-f]{62}$/.test(p));
  return {
    blobs: blobs.map((p) => p.replace("/", "")),
    bytes: () => blobs.reduce((n, p) => n + statSync(join(dir, "blobs", p)).size, 0),
    records: () => list("turns").filter((p) => p.endsWith(".json")).map((p) => JSON.parse(readFileSync(join(dir, "turns", p), "utf8")) as TurnRecord),
    // Made when asked: the key is the store's, written by shiro's first blob.
    nameOf: (bytes: Uint8Array) => createBlobStore(join(dir, "blobs"), join(dir, "key")).hash(bytes),
  };
}
