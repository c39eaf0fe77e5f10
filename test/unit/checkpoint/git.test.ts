/**
 * Issue 32: in a git repository the first look records a file that is byte for byte HEAD's blob by
 * reference (read back with git when a change needs it), and stores only what git does not hold so:
 * untracked, ignored, staged, modified — and a file git's filters made other bytes than its blob.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlobStore } from "../../../src/checkpoint/blob-store.ts";
import { openProjectState } from "../../../src/checkpoint/project-state.ts";
import { gitIn } from "../../support/undo-project.ts";

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A repository mid-work: clean files, one modified, one staged, one untracked, one ignored, one checked out with CRLF. */
function repo() {
  const base = mkdtempSync(join(tmpdir(), "shiro-cp-git-"));
  made.push(base);
  const root = join(base, "p");
  mkdirSync(join(root, "src"), { recursive: true });
  const files: Record<string, string> = {
    "a.ts": "export const a = 1;\n",
    "run.sh": "#!/bin/sh\necho run\n",
    "src/b.ts": "export const b = 2;\n",
    "src/c.ts": "export const c = 3;\n",
    "src/d.ts": "export const d = 4;\n",
    "crlf.txt": "one\ntwo\n",
    ".gitignore": ".env\n",
    ".gitattributes": "crlf.txt eol=crlf\n",
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  chmodSync(join(root, "run.sh"), 0o755);
  gitIn(root, "init", "-q", "-b", "main");
  gitIn(root, "add", "-A");
  gitIn(root, "commit", "-q", "-m", "first");
  // Checked out again: git writes it with CRLF, so its bytes are not the blob's (same stat as the index says).
  rmSync(join(root, "crlf.txt"));
  gitIn(root, "checkout", "--", "crlf.txt");
  writeFileSync(join(root, "src/c.ts"), "export const c = 30; // modified\n");
  writeFileSync(join(root, "src/b.ts"), "export const b = 20; // staged\n");
  gitIn(root, "add", "src/b.ts");
  writeFileSync(join(root, "new.ts"), "untracked\n");
  writeFileSync(join(root, ".env"), "TOKEN=ignored\n");
  const blobs = createBlobStore(join(base, "blobs"), join(base, "key"));
  return { base, root, blobs, cachePath: join(base, "cache.json") };
}

const stored = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((p) => p.includes("/")).map((p) => p.replace("/", "")) : []);
const pointer = expect.stringMatching(/^[A-Za-z0-9+/]+=*$/);

describe("checkpoints in a git repository", () => {
  test("the first look stores what git does not hold as HEAD has it; a clean file is read back from git when a turn changes it", async () => {
    const { root, blobs, cachePath } = repo();
    const bytesOf = (path: string) => readFileSync(join(root, path));
    const hashOf = (path: string) => blobs.hash(bytesOf(path));
    const clean = ["a.ts", "run.sh", ".gitignore", ".gitattributes"].map(hashOf);
    const dirty = ["src/b.ts", "src/c.ts", "new.ts", ".env", "crlf.txt", ".git/index", ".git/HEAD"].map(hashOf);
    const state = await openProjectState({ root, blobs, cachePath });
    const names = stored(blobs.dir);
    expect(clean.filter((h) => names.includes(h))).toEqual([]);
    expect(dirty.filter((h) => !names.includes(h))).toEqual([]);
    expect(readFileSync(join(root, "crlf.txt"), "utf8")).toBe("one\r\ntwo\r\n");

    const before = { a: bytesOf("a.ts"), run: bytesOf("run.sh") };
    writeFileSync(join(root, "a.ts"), "export const a = 100;\n");
    rmSync(join(root, "run.sh"));
    const changes = state.refresh().sort((x, y) => (x.path < y.path ? -1 : 1));
    expect(changes.map((c) => c.path)).toEqual(["a.ts", "run.sh"]);
    expect(changes[0]!.before).toEqual({ kind: "file", hash: clean[0]!, size: before.a.length, mode: 0o644, git: pointer });
    expect(changes[1]!.before).toEqual({ kind: "file", hash: clean[1]!, size: before.run.length, mode: 0o755, git: pointer });
    expect(changes[1]!.after).toBeUndefined();
    // Referenced, not copied: the pointer names no blob id in the clear, and git gives the bytes back.
    expect(stored(blobs.dir).filter((h) => clean.includes(h))).toEqual([]);
    const oid = gitIn(root, "rev-parse", "HEAD:a.ts").trim();
    expect(JSON.stringify(changes)).not.toContain(oid);
    const back = blobs.getAll(changes.map((c) => c.before as { hash: string; size: number; git: string }));
    expect([back.get(clean[0]!), back.get(clean[1]!)]).toEqual([new Uint8Array(before.a), new Uint8Array(before.run)]);
    // Without its pointer, the name alone finds nothing: those bytes were never copied.
    expect(blobs.get(clean[0]!)).toBeUndefined();
    state.close();
    // Nothing of git's own was written: the index is as it was, no lock left.
    expect(existsSync(join(root, ".git/index.lock"))).toBe(false);
  });

  test("touched but unchanged (same bytes, a new time): no change, and it is not stored", async () => {
    const { root, blobs, cachePath } = repo();
    const state = await openProjectState({ root, blobs, cachePath });
    utimesSync(join(root, "a.ts"), new Date(), new Date(2030, 1, 1));
    expect(state.refresh()).toEqual([]);
    state.close();
  });

  test("without git's word (git: false), an index younger than its entries (racily clean), everything is read", async () => {
    for (const how of ["git off", "racy"] as const) {
      const { root, blobs, cachePath } = repo();
      if (how === "racy") utimesSync(join(root, ".git/index"), new Date(2001, 1, 1), new Date(2001, 1, 1));
      const state = await openProjectState({ root, blobs, cachePath, ...(how === "git off" ? { git: false } : {}) });
      expect(stored(blobs.dir)).toContain(blobs.hash(readFileSync(join(root, "a.ts"))));
      state.close();
    }
  });

  test("a linked worktree and a project that is a folder of the repository reference blobs too", async () => {
    const { base, root, blobs, cachePath } = repo();
    gitIn(root, "worktree", "add", "-q", join(base, "wt"));
    // Checked out in the instant its index was written, a file is "racily clean" (read, not referenced): an older time, and git looks again.
    const old = new Date(2020, 1, 1);
    for (const file of ["a.ts", "src/d.ts"]) utimesSync(join(base, "wt", file), old, old);
    gitIn(join(base, "wt"), "update-index", "-q", "--refresh");
    for (const [where, file] of [[join(base, "wt"), "a.ts"], [join(root, "src"), "d.ts"]] as const) {
      const original = readFileSync(join(where, file));
      const state = await openProjectState({ root: where, blobs, cachePath: `${cachePath}.${file}` });
      expect(stored(blobs.dir)).not.toContain(blobs.hash(original));
      writeFileSync(join(where, file), "changed\n");
      const [change] = state.refresh();
      expect(change!.path).toBe(file);
      expect(blobs.getAll([change!.before as { hash: string; size: number; git: string }]).get(blobs.hash(original))).toEqual(new Uint8Array(original));
      state.close();
    }
  });

  test("a blob git no longer has when the file changes: told, and kept as lost (undo lists it as not restored)", async () => {
    const { root, blobs, cachePath } = repo();
    const warnings: string[] = [];
    const state = await openProjectState({ root, blobs, cachePath, warn: (line) => warnings.push(line) });
    const oid = gitIn(root, "rev-parse", "HEAD:a.ts").trim();
    rmSync(join(root, ".git/objects", oid.slice(0, 2), oid.slice(2)));
    writeFileSync(join(root, "a.ts"), "changed\n");
    const [change] = state.refresh();
    expect(change!.before).toEqual({ kind: "big", size: 20, mode: 0o644 });
    expect(warnings).toEqual(["checkpoint: git no longer has the blob a.ts held when the turn began; undo cannot bring it back"]);
    state.close();
  });
});
