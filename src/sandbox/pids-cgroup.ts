import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A pids cgroup for one command: the file its first process writes its pid to, and its removal once the command is over. */
export type PidsGroup = { procs: string; release(): Promise<void> };

let base: string | null | undefined;
let made = 0;
// How long a finished command's last processes (the lifeline watcher, a pid namespace being torn down) may take to go.
const EMPTY_WAIT_MS = 3000;

/** Where this process may make pids cgroups: cgroup v1's pids hierarchy, or v2's root when it delegates pids. */
function cgroupBase(): string | null {
  if (base !== undefined) return base;
  const v2 = "/sys/fs/cgroup";
  const v1 = join(v2, "pids");
  const delegates = (dir: string) => existsSync(join(dir, "cgroup.subtree_control")) && readFileSync(join(dir, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids");
  base = existsSync(join(v1, "cgroup.procs")) ? v1 : delegates(v2) ? v2 : null;
  if (base) removeStale(base);
  return base;
}

/** Groups left by a shiro that was killed before it could remove them: empty ones of dead processes go. */
function removeStale(at: string): void {
  for (const name of readdirSync(at)) {
    const pid = /^shiro-(\d+)-\d+$/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    try {
      rmdirSync(join(at, name));
    } catch {
      // Still holds processes: not ours to touch.
    }
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Whether commands run in pids cgroups here (root, with a cgroup to make): the process limit and their end then hold without a PID namespace. */
export const pidsGroupsAvailable = (): boolean => process.getuid?.() === 0 && cgroupBase() !== null;

/**
 * RLIMIT_NPROC never binds root (the kernel exempts it), so for root a fork loop inside the sandbox is
 * held by a pids cgroup instead, where the machine has one to give. Undefined for other users (their
 * limit binds) and where no cgroup can be made (a container without one: then only the time limit holds).
 */
export function pidsGroup(max: number): PidsGroup | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const at = cgroupBase();
  if (!at) return undefined;
  const dir = join(at, `shiro-${process.pid}-${made++}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, "pids.max"), String(max));
  } catch {
    base = null; // not ours to use after all (read-only, or refused): stop trying
    return undefined;
  }
  return { procs: join(dir, "cgroup.procs"), release: () => removeWhenEmpty(dir) };
}

// A group can only be removed once empty; the command has ended, so its processes are on their way out
// (the lifeline watcher leaves a moment after it is told): look again often at first, then less.
async function removeWhenEmpty(dir: string): Promise<void> {
  // Whatever of the command is left — under Landlock a `setsid` job leaves its group, not this cgroup — ends with it.
  killAll(dir);
  for (let tries = 0, until = Date.now() + EMPTY_WAIT_MS; ; await Bun.sleep(tries++ < 20 ? 1 : 10)) {
    try {
      rmdirSync(dir);
      return;
    } catch {
      if (Date.now() > until) return; // left for removeStale the next time shiro starts
    }
  }
}

function killAll(dir: string): void {
  let pids: string[];
  try {
    pids = readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // already gone
    }
  }
}
