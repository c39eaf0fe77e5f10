import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBlobStore } from "../../../src/checkpoint/blob-store.ts";
import { openProjectState, type Change } from "../../../src/checkpoint/project-state.ts";

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
function place() {
  const base = mkdtempSync(join(tmpdir(), "shiro-cp-"));
  made.push(base);
  const root = join(base, "p");
  mkdirSync(join(root, "src/deep"), { recursive: true });
  mkdirSync(join(root, ".git/refs/heads"), { recursive: true });
  mkdirSync(join(root, ".git/objects/ab"), { recursive: true });
  mkdirSync(join(root, "node_modules/pkg"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "node_modules/\n.env\n");
  writeFileSync(join(root, "src/a.ts"), "a\n");
  writeFileSync(join(root, "src/deep/b.ts"), "b\n");
  writeFileSync(join(root, ".env"), "TOKEN=x\n");
  writeFileSync(join(root, "node_modules/pkg/index.js"), "x\n");
  writeFileSync(join(root, ".git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(root, ".git/refs/heads/main"), "1".repeat(40) + "\n");
  writeFileSync(join(root, ".git/objects/ab/cd"), "object\n");
  writeFileSync(join(root, ".git/config"), "[core]\n");
  return { base, root, blobs: createBlobStore(join(base, "blobs"), join(base, "key")) };
}
const paths = (changes: Change[]) => changes.map((c) => `${c.before ? (c.after ? "~" : "-") : "+"}${c.path}`).sort();

describe("the project as checkpoints see it", () => {
  for (const watch of [true, false]) {
    test(`${watch ? "by inotify" : "by walking"}: every change is seen, nothing else; ignored folders and git's objects are not held`, async () => {
      const { base, root, blobs } = place();
      const state = await openProjectState({ root, blobs, cachePath: join(base, "cache.json"), watch });
      expect(state.get(".env")?.kind).toBe("file");
      expect(state.get(".git/refs/heads/main")?.kind).toBe("file");
      expect(state.get(".git/objects/ab/cd")).toBeUndefined();
      expect(state.get(".git/config")).toBeUndefined();
      expect(state.get("node_modules/pkg/index.js")).toBeUndefined();
      expect(state.refresh()).toEqual([]);

      writeFileSync(join(root, "src/a.ts"), "A\n"); // same size, rewritten in place
      appendFileSync(join(root, "node_modules/pkg/index.js"), "ignored\n");
      writeFileSync(join(root, ".git/objects/ab/ef"), "another object\n");
      writeFileSync(join(root, ".git/refs/heads/topic"), "2".repeat(40) + "\n");
      expect(paths(state.refresh())).toEqual(["+.git/refs/heads/topic", "~src/a.ts"]);

      renameSync(join(root, "src/deep"), join(root, "src/moved"));
      expect(paths(state.refresh())).toEqual(["+src/moved/b.ts", "-src/deep/b.ts"]);
      renameSync(join(root, "src/moved"), join(base, "outside"));
      expect(paths(state.refresh())).toEqual(["-src/moved/b.ts"]);
      // Moved out of the project, it is no longer the project's: a change there is not seen.
      writeFileSync(join(base, "outside/b.ts"), "changed outside\n");
      mkdirSync(join(root, "new/inner"), { recursive: true });
      writeFileSync(join(root, "new/inner/c.ts"), "c\n");
      symlinkSync("../src/a.ts", join(root, "new/link"));
      expect(paths(state.refresh())).toEqual(["+new/inner/c.ts", "+new/link"]);
      expect(state.get("new/link")).toEqual({ kind: "link", target: "../src/a.ts" });

      // A changed .gitignore changes what is held.
      writeFileSync(join(root, ".gitignore"), ".env\n");
      expect(paths(state.refresh())).toEqual(["+node_modules/pkg/index.js", "~.gitignore"]);
      rmSync(join(root, "new"), { recursive: true });
      expect(paths(state.refresh())).toEqual(["-new/inner/c.ts", "-new/link"]);
      state.close();
    });
  }

  test("the next run hashes only what changed meanwhile; the same content and mode with a new time is no change", async () => {
    const { base, root, blobs } = place();
    (await openProjectState({ root, blobs, cachePath: join(base, "cache.json") })).close();
    utimesSync(join(root, "src/a.ts"), new Date(2020, 1, 1), new Date(2020, 1, 1));
    const again = await openProjectState({ root, blobs, cachePath: join(base, "cache.json") });
    expect(again.refresh()).toEqual([]);
    again.close();
  });

  test("a file over the cap is reported as too large, its bytes not kept", async () => {
    const { base, root, blobs } = place();
    writeFileSync(join(root, "big.bin"), new Uint8Array(4096));
    const state = await openProjectState({ root, blobs, cachePath: join(base, "cache.json"), maxBytes: 1024 });
    expect(state.get("big.bin")).toEqual({ kind: "big", size: 4096, mode: expect.any(Number) });
    expect(state.big()).toEqual(["big.bin"]);
    state.close();
  });
});

describe("blobs", () => {
  test("sealed: the stored file holds none of the bytes; a blob changed on disk is refused, not returned", async () => {
    const { base, blobs } = place();
    const secret = new TextEncoder().encode("API_TOKEN=sk-live-abcdefghijklmnop\n");
    const hash = blobs.put(secret);
    expect(blobs.put(secret)).toBe(hash);
    expect(blobs.get(hash)).toEqual(secret);
    const file = join(base, "blobs", hash.slice(0, 2), hash.slice(2));
    const stored = readFileSync(file);
    expect(stored.toString("latin1")).not.toContain("sk-live");
    expect(readdirSync(join(base, "blobs"))).toHaveLength(1);
    stored[stored.length - 1]! ^= 1;
    writeFileSync(file, stored);
    expect(blobs.get(hash)).toBeUndefined();
    // Another store's key names the same bytes differently: a hash says nothing outside its store.
    expect(createBlobStore(join(base, "other"), join(base, "other-key")).hash(secret)).not.toBe(hash);
  });
});
