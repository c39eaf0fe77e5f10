/**
 * A runaway loop of forks inside the sandbox ends at the process limit, and nothing a command started
 * outlives it. As root the limit is a pids cgroup (RLIMIT_NPROC never binds root); without one to make
 * (a container without cgroups) the test says so and is skipped.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_PROCS } from "../../../src/sandbox/create-sandbox.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", existsSync("/usr/bin/bwrap"));
const canLimitRoot = process.getuid?.() !== 0 || existsSync("/sys/fs/cgroup/pids/cgroup.procs");
const bash = (command: string) => ({ name: "bash", arguments: { command, timeout_ms: 20_000 } });
// A marker no other process on the machine has in its command line.
const MARK = `30.${process.pid}7`;
const groups = () => (existsSync("/sys/fs/cgroup/pids") ? readdirSync("/sys/fs/cgroup/pids").filter((n) => n.startsWith("shiro-")) : []);
// A group is named `shiro-<pid>-<n>` after the shiro that made it and removed before that shiro ends: one
// whose shiro is gone was left behind. Groups of other test files' live runs are theirs, not a leak.
const ownerAlive = (group: string) => existsSync(`/proc/${group.split("-")[1]}`);
const leaked = (before: readonly string[]) => groups().filter((g) => !before.includes(g) && !ownerAlive(g));
const alive = () => Bun.spawnSync(["pgrep", "-f", `sleep ${MARK}`]).stdout.toString().trim().split("\n").filter(Boolean).length;

test.skipIf(!hasBwrap || !canLimitRoot)(`a burst of ${MAX_PROCS + 500} background processes stops at the limit, the machine answers, and none outlives the command`, async () => {
  const root = tempDir("limits");
  writeFileSync(join(root, "README"), "hello\n");
  // Python forks and counts: a fork refused raises at once (bash would retry it for seconds).
  const burst = `python3 -c "
import subprocess
n = 0
try:
    for i in range(${MAX_PROCS + 500}):
        subprocess.Popen(['sleep', '${MARK}']); n += 1
except OSError:
    pass
print('running=%d' % n)"`;
  const groupsBefore = groups();
  const job = await scriptedJob([bash(burst), bash("cat README")], { cwd: root, args: ["--yolo"] });
  const running = Number(/running=(\d+)/.exec(job.outputs[0]!.output)?.[1] ?? "NaN");
  expect(running).toBeLessThanOrEqual(MAX_PROCS);
  expect(running).toBeGreaterThan(100);
  // The control: the next command of the same run works.
  expect(job.outputs[1]!.output).toContain("hello");
  expect(alive()).toBe(0);
  // Each command's pids cgroup (as root) is removed once the command is over.
  expect(leaked(groupsBefore)).toEqual([]);
}, 60_000);

test.skipIf(!hasBwrap || process.getuid?.() !== 0 || !existsSync("/sys/fs/cgroup/pids/cgroup.procs"))("as root, a pids cgroup left by a shiro killed with -9 is removed by the next run; a command's own is gone when it ends", async () => {
  // No process ever has this pid (above the kernel's pid_max): the group is stale by construction.
  const stale = "/sys/fs/cgroup/pids/shiro-999999999-0";
  mkdirSync(stale, { recursive: true });
  const root = tempDir("limits-stale");
  const before = groups();
  const job = await scriptedJob([bash("echo ran")], { cwd: root, args: ["--yolo"] });
  expect(job.outputs[0]!.output).toContain("ran");
  expect(existsSync(stale)).toBe(false);
  expect(leaked(before)).toEqual([]);
});
