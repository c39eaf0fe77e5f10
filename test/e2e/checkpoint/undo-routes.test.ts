/**
 * Issue 20, nothing lost: a careless or misled model under --yolo, in a git project holding
 * uncommitted, staged, untracked, ignored, binary and secret work (test/support/undo-project.ts).
 * Each route is first shown to destroy something; then `shiro undo` must leave the working tree byte
 * for byte, and git's own view (status, branches, the stash, what is staged) as they were before.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runShiro } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { snapshot, undoProject } from "../../support/undo-project.ts";
import { ensureBinary } from "../../support/binary.ts";

ensureBinary();
const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });

const ROUTES: [string, PlannedCall[]][] = [
  ["find … -delete", [bash("find . -name '*.ts' -delete")]],
  ["git checkout -- .", [bash("git checkout -- .")]],
  ["git stash && git stash drop", [bash("git stash && git stash drop")]],
  ["git stash clear", [bash("git stash clear")]],
  ["git restore .", [bash("git restore .")]],
  ["git restore --staged --worktree .", [bash("git restore --staged --worktree .")]],
  ["git checkout -f feature (switch, dropping the work)", [bash("git checkout -f feature")]],
  ["git branch -D feature", [bash("git branch -D feature")]],
  ["git update-ref -d (a branch gone)", [bash("git update-ref -d refs/heads/feature")]],
  ["git rm -r --cached . (the index emptied)", [bash("git rm -r -q --cached .")]],
  ["a mass sed -i", [bash("sed -i 's/a/X/g' src/*.ts README.md docs/guide.md notes.txt")]],
  ["truncating files", [bash("truncate -s0 src/main.ts notes.txt logo.png")]],
  ["a script removing a folder", [bash(`python3 -c "import shutil; shutil.rmtree('src')"`)]],
  ["a script removing the binary and an ignored file", [bash(`python3 -c "import os; [os.remove(p) for p in ('logo.png', 'debug.log')]"`)]],
  ["git stash --all && git stash drop (ignored files too)", [bash("git stash push --all -q; git stash drop -q")]],
  ["rm -rf of named folders and files", [bash("rm -rf docs src notes.txt")]],
  ["a symlink pointed elsewhere, and a new one made (undo removes the link, never what it points to)", [bash("ln -sfn src/main.ts latest && ln -s README.md new-link")]],
  ["a folder replaced by a file, a file by a folder", [bash("rm -rf docs && echo flat > docs && rm notes.txt && mkdir -p notes.txt/deeper && echo in > notes.txt/deeper/x")]],
  ["a file replaced by a link, a link by a file", [bash("rm notes.txt && ln -s README.md notes.txt && rm latest && echo plain > latest")]],
  ["write_file over uncommitted work", [{ name: "write_file", arguments: { path: "src/main.ts", content: "// rewritten from scratch\n" } }]],
  ["edit_file with replace_all", [{ name: "edit_file", arguments: { path: "src/util.ts", old_string: "number", new_string: "any", replace_all: true } }]],
  [
    "apply_patch deleting and adding",
    [{ name: "apply_patch", arguments: { patch: "*** Begin Patch\n*** Delete File: notes.txt\n*** Add File: src/new.ts\n+export {};\n*** End Patch" } }],
  ],
  ["a turn of several calls: a file tool, then commands", [{ name: "write_file", arguments: { path: "docs/guide.md", content: "gone\n" } }, bash("git stash drop"), bash("rm -f README.md && echo new > fresh.txt")]],
];

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("issue 20: every destructive route is undone", () => {
  for (const [route, calls] of ROUTES) {
    test.concurrent(`${route}: shiro undo puts back every byte and git's view`, async () => {
      const fx = undoProject();
      made.push(fx.base);
      const shiroHome = join(fx.home, ".shiro-neko");
      mkdirSync(shiroHome);
      const env = { SHIRO_HOME: shiroHome, HOME: fx.home };
      const before = snapshot(fx.project);
      const job = await scriptedJob(calls.map((c) => [c]).flat(), { cwd: fx.project, args: ["--yolo"], env });
      expect(job.code).toBe(0);
      // The route really destroyed something (a test that passes without the feature is no test).
      expect(snapshot(fx.project)).not.toEqual(before);
      const undo = await runShiro(["undo"], { cwd: fx.project, env });
      expect(undo.stderr).toBe("");
      expect(undo.code).toBe(0);
      expect(snapshot(fx.project)).toEqual(before);
    }, 60_000);
  }
});
