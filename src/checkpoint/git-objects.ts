import { safeGit } from "./safe-git.ts";

/** A blob of a repository's object store: its id, and its size (how much one call reads at most). */
export type GitBlob = { oid: string; size: number };

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
// One `git cat-file` reads at most this much: undoing a removed tree of large files stays within memory.
const BATCH_BYTES = 64 * 1024 * 1024;

/**
 * Blobs by absolute id from the object store of `gitDir`, the bytes as git keeps them (`cat-file
 * --batch` runs no filter), one `git` per batch. An id git does not have (pruned by a `git gc`, never
 * fetched) is left out of the answer; so is every id when no trusted git can be run.
 */
export function readGitBlobs(gitDir: string, blobs: readonly GitBlob[]): Map<string, Uint8Array> {
  const found = new Map<string, Uint8Array>();
  const wanted = [...new Map(blobs.filter((b) => OID.test(b.oid)).map((b) => [b.oid, b])).values()];
  for (let i = 0; i < wanted.length; ) {
    const batch: string[] = [];
    for (let bytes = 0; i < wanted.length && (batch.length === 0 || bytes + wanted[i]!.size <= BATCH_BYTES); i++) {
      batch.push(wanted[i]!.oid);
      bytes += wanted[i]!.size;
    }
    const git = safeGit({ gitDir }, ["cat-file", "--batch"]);
    if (!git) return found;
    const r = Bun.spawnSync(git.cmd, { env: git.env, stdin: Buffer.from(batch.join("\n") + "\n"), stdout: "pipe", stderr: "ignore" });
    if (r.exitCode !== 0) continue;
    parseBatch(r.stdout, found);
  }
  return found;
}

/** `<oid> blob <size>\n<bytes>\n` per object found, `<oid> missing\n` per one not; other types are skipped. */
function parseBatch(out: Uint8Array, into: Map<string, Uint8Array>) {
  const text = new TextDecoder("latin1");
  for (let at = 0; at < out.length; ) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) return;
    const [oid, type, size] = text.decode(out.subarray(at, eol)).split(" ");
    at = eol + 1;
    if (size === undefined) continue; // missing, or ambiguous
    const end = at + Number(size);
    if (type === "blob" && end <= out.length) into.set(oid!, out.slice(at, end));
    at = end + 1;
  }
}
