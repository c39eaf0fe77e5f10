/**
 * Issue 32 through the binary: in a 20,000-file git repository the first look stores only what git
 * does not hold as HEAD has it — untracked, ignored, staged and modified files (and git's index and
 * refs) — and the rest by reference; still `shiro undo` after a `--yolo` `rm -rf` brings back every
 * file byte for byte, the referenced ones read back from the repository. Asserted on the store's
 * files under `$SHIRO_HOME/checkpoints/blobs` and on a snapshot of the tree taken before.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../../support/binary.ts";
import { checkpointStoreFiles } from "../../support/checkpoint-store-files.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { gitIn, snapshot } from "../../support/undo-project.ts";
import { wideTree } from "../../support/wide-tree.ts";

ensureBinary();
// Only how long a run may take before it is killed (a 20,000-file undo on a loaded machine): nothing asserts a time.
const SLOW = 150_000;
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const FILES = 20_000;
// What git does not hold as HEAD has it: these alone are copied into the store.
const DIRTY = ["d0003/f05.ts", "d0007/f01.ts", "notes.txt", "d0010/new.ts", "settings.local", "debug.log"];

/** 20,000 committed files, then one modified, one staged, two untracked, two ignored, an untracked link. */
function repository() {
  const base = tempDir("undo-git-scale");
  made.push(base);
  const home = join(base, "home");
  const project = join(base, "app");
  mkdirSync(home);
  wideTree(project, FILES);
  mkdirSync(join(project, "tools"));
  writeFileSync(join(project, "tools/run.sh"), "#!/bin/sh\necho run\n");
  chmodSync(join(project, "tools/run.sh"), 0o755);
  writeFileSync(join(project, ".gitignore"), "*.local\n*.log\n");
  gitIn(project, "init", "-q", "-b", "main");
  gitIn(project, "add", "-A");
  // Packed now, as a clone is (a commit's own `gc --auto` would pack it in the background later, mid-test).
  gitIn(project, "-c", "gc.auto=0", "commit", "-q", "-m", "the tree");
  gitIn(project, "gc", "-q");
  writeFileSync(join(project, "d0003/f05.ts"), "// modified, not committed\n", { flag: "a" });
  writeFileSync(join(project, "d0007/f01.ts"), "export const staged = true;\n");
  gitIn(project, "add", "d0007/f01.ts");
  writeFileSync(join(project, "notes.txt"), "untracked thoughts\n");
  writeFileSync(join(project, "d0010/new.ts"), "export const untracked = 1;\n");
  writeFileSync(join(project, "settings.local"), "ignored settings\n");
  writeFileSync(join(project, "debug.log"), "ignored log line\n");
  symlinkSync("d0000/f00.ts", join(project, "latest"));
  return { project, env: { SHIRO_HOME: join(home, ".shiro-neko"), HOME: home } };
}

test("a 20,000-file repository: the first look stores only untracked and modified files; undo after rm -rf of everything but .git, then of every file, restores each byte for byte", async () => {
  const { project, env } = repository();
  const tracked = gitIn(project, "ls-files", "-z").split("\0").filter(Boolean);
  expect(tracked.length).toBe(FILES + 3);
  const before = snapshot(project);

  // A command that may write waits for the first look: once it ran, the look is done.
  const first = await scriptedJob([{ name: "bash", arguments: { command: "true" } }], { cwd: project, args: ["--yolo"], env, timeoutMs: SLOW });
  expect(first.code).toBe(0);
  const looked = checkpointStoreFiles(env.SHIRO_HOME);
  const nameOf = (path: string) => looked.nameOf(readFileSync(join(project, path)));
  expect(DIRTY.filter((path) => !looked.blobs.includes(nameOf(path)))).toEqual([]);
  const clean = new Set(tracked.filter((path) => !DIRTY.includes(path)).map(nameOf));
  expect(looked.blobs.filter((name) => clean.has(name))).toEqual([]);
  // The dirty files and git's own (HEAD, index, the branch and its log): nothing else.
  expect(looked.blobs.length).toBeLessThan(DIRTY.length + 8);
  const treeBytes = tracked.reduce((n, path) => n + readFileSync(join(project, path)).length, 0);
  // Its bytes are mostly git's index (a line per file, ids that do not compress).
  expect(looked.bytes()).toBeLessThan(treeBytes / 5);

  const rmAll = await scriptedJob([{ name: "bash", arguments: { command: "find . -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +" } }], { cwd: project, args: ["--yolo"], env, timeoutMs: SLOW });
  expect(rmAll.code).toBe(0);
  expect(readdirSync(project)).toEqual([".git"]);
  // What the turn removed that git holds is referenced from its record, not copied into the store.
  const afterRm = checkpointStoreFiles(env.SHIRO_HOME);
  expect(afterRm.blobs.filter((name) => clean.has(name))).toEqual([]);
  const removed = Object.values(afterRm.records()[0]!.changes).map((c) => c.before);
  expect(removed.filter((k) => k?.kind === "file" && clean.has(k.hash) && k.git !== undefined).length).toBe(clean.size);
  const undo = await runShiro(["undo"], { cwd: project, env, timeoutMs: SLOW });
  expect([undo.code, undo.stderr]).toEqual([0, ""]);
  expect(snapshot(project)).toEqual(before);

  // Every file, tracked, untracked, modified and ignored, folders left standing.
  const rmFiles = `git ls-files -z | xargs -0 rm -f && rm -f ${DIRTY.join(" ")} latest`;
  const second = await scriptedJob([{ name: "bash", arguments: { command: rmFiles } }], { cwd: project, args: ["--yolo"], env, timeoutMs: SLOW });
  expect(second.code).toBe(0);
  expect(readdirSync(join(project, "d0000"))).toEqual([]);
  expect(checkpointStoreFiles(env.SHIRO_HOME).blobs.filter((name) => clean.has(name))).toEqual([]);
  const undoFiles = await runShiro(["undo"], { cwd: project, env, timeoutMs: SLOW });
  expect([undoFiles.code, undoFiles.stderr]).toEqual([0, ""]);
  expect(snapshot(project)).toEqual(before);
}, 300_000);
