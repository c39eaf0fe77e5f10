/**
 * Issue 32 outside git: the first look still reads and stores every file, and undo after an `rm -rf`
 * brings each back as before — but it goes on in the background. A read-only call (grep) is answered
 * while it runs; a call that may write waits for it. Shown by what the store holds at the moment the
 * model receives each result: fewer blobs than files when grep's came back, all of them once the
 * writing command's did. No clock is read.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../../support/binary.ts";
import { checkpointStoreFiles } from "../../support/checkpoint-store-files.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import { snapshot } from "../../support/undo-project.ts";
import { wideTree } from "../../support/wide-tree.ts";

ensureBinary();
// Only how long a run may take before it is killed (a 20,000-file undo on a loaded machine): nothing asserts a time.
const SLOW = 150_000;
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function place() {
  const base = tempDir("undo-plain");
  made.push(base);
  const home = join(base, "home");
  mkdirSync(home);
  return { project: join(base, "app"), env: { SHIRO_HOME: join(home, ".shiro-neko"), HOME: home } };
}

test("a plain tree (no git): every file is stored, and undo after rm -rf restores each byte for byte, ignored ones too", async () => {
  const { project, env } = place();
  const files: Record<string, string> = { "src/main.ts": "main\n", "src/util.ts": "util\n", ".gitignore": "*.log\n*.local\n", "debug.log": "ignored\n", "settings.local": "ignored too\n", "bin/run.sh": "#!/bin/sh\n" };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  chmodSync(join(project, "bin/run.sh"), 0o755);
  symlinkSync("src/main.ts", join(project, "latest"));
  const before = snapshot(project, { git: false });

  // Every entry by name (the guard refuses `rm -rf ./*` outright).
  const job = await scriptedJob([{ name: "bash", arguments: { command: "rm -rf src bin debug.log settings.local .gitignore latest" } }], { cwd: project, args: ["--yolo"], env, timeoutMs: SLOW });
  expect(job.code).toBe(0);
  expect(snapshot(project, { git: false })).toEqual({});
  const stored = checkpointStoreFiles(env.SHIRO_HOME);
  expect(Object.values(files).map((text) => stored.blobs.includes(stored.nameOf(Buffer.from(text))))).toEqual(Object.values(files).map(() => true));
  expect(stored.records()[0]!.changes["src/main.ts"]!.before).not.toHaveProperty("git");
  const undo = await runShiro(["undo"], { cwd: project, env, timeoutMs: SLOW });
  expect([undo.code, undo.stderr]).toEqual([0, ""]);
  expect(snapshot(project, { git: false })).toEqual(before);
}, 60_000);

test("a 20,000-file plain tree: grep is answered while the first look still goes on; the command that writes waits for it, and is undone", async () => {
  const { project, env } = place();
  const files = wideTree(project, 20_000);
  // Sampled as the model receives each result: the server asks for the second step when grep's result came back, again after the command's.
  const held: number[] = [];
  const write = { name: "bash", arguments: { command: "echo written >> zzz/needle.txt" } };
  const job = await scriptedJob([{ name: "grep", arguments: { pattern: "needle" } }, () => (held.push(checkpointStoreFiles(env.SHIRO_HOME).blobs.length), write)], { cwd: project, args: ["--yolo"], env, timeoutMs: SLOW });
  expect(job.code).toBe(0);
  expect(outputOf(job, "grep", () => true)).toContain("zzz/needle.txt");
  expect(held).toHaveLength(2);
  // Each of the tree's files holds other bytes: the look is done when there is a blob for each.
  expect(held[0]).toBeLessThan(files);
  expect(held[1]).toBeGreaterThanOrEqual(files);
  expect(readFileSync(join(project, "zzz/needle.txt"), "utf8")).toEndWith("written\n");

  const undo = await runShiro(["undo"], { cwd: project, env, timeoutMs: SLOW });
  expect([undo.code, undo.stderr]).toEqual([0, ""]);
  expect(readFileSync(join(project, "zzz/needle.txt"), "utf8")).toBe("hay\nthe needle is here\nhay\n");
}, 180_000);
