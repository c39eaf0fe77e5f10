/**
 * `shiro undo` on a `$SHIRO_HOME` that cannot be written (a real read-only bind mount in a mount
 * namespace of its own): `--list` still shows the turns, an undo or a prune refuses in one line with
 * exit 1 before touching anything — the project's files and the home are byte for byte as they were.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { sweep } from "../../support/sweep-tree.ts";

const mountable = Bun.spawnSync(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
if (!mountable) console.warn("undo-unwritable-home: no mount namespace here (unshare -m refused); the read-only home is not tested");
const READ_ONLY = ["unshare", "-m", "sh", "-c", 'mount --bind "$SHIRO_HOME" "$SHIRO_HOME" && mount -o remount,bind,ro "$SHIRO_HOME" && exec "$@"', "read-only-home"];

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test.skipIf(!mountable)("undo on a read-only home: --list works, undo and --prune refuse in one line and change nothing", async () => {
  const base = tempDir("undo-ro");
  made.push(base);
  const home = join(base, "home");
  const project = join(home, "code", "app");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, "a.txt"), "the person's work\n");
  const env = { HOME: home, SHIRO_HOME: join(home, ".shiro-neko") };
  const job = await scriptedJob([{ name: "write_file", arguments: { path: "a.txt", content: "rewritten\n" } }], { cwd: project, home, args: ["--yolo"], env });
  expect(job.code).toBe(0);
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("rewritten\n");
  const before = { project: sweep(project), home: sweep(env.SHIRO_HOME) };

  const list = await runShiro(["undo", "--list"], { cwd: project, home, env, wrap: READ_ONLY });
  expect(list.code).toBe(0);
  expect(list.stdout).toContain("a.txt");
  for (const args of [["undo"], ["undo", "--prune"]]) {
    const run = await runShiro(args, { cwd: project, home, env, wrap: READ_ONLY });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain(env.SHIRO_HOME);
  }
  expect({ project: sweep(project), home: sweep(env.SHIRO_HOME) }).toEqual(before);
  // Writable again, the same undo puts the person's bytes back.
  const undo = await runShiro(["undo"], { cwd: project, home, env });
  expect(undo.code).toBe(0);
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("the person's work\n");
});
