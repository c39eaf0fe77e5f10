import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A pids cgroup for one command: the file its first process writes its pid to, and its removal once the command is over. */
export type PidsGroup = { procs: string; release(): void };

let base: string | null | undefined;
let made = 0;

/** Where this process may make pids cgroups: cgroup v1's pids hierarchy, or v2's root when it delegates pids. */
function cgroupBase(): string | null {
  if (base !== undefined) return base;
  const v2 = "/sys/fs/cgroup";
  const v1 = join(v2, "pids");
  const delegates = (dir: string) => existsSync(join(dir, "cgroup.subtree_control")) && readFileSync(join(dir, "cgroup.subtree_control"), "utf8").split(/\s+/).includes("pids");
  base = existsSync(join(v1, "cgroup.procs")) ? v1 : delegates(v2) ? v2 : null;
  return base;
}

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
  return {
    procs: join(dir, "cgroup.procs"),
    release: () => removeWhenEmpty(dir, 60),
  };
}

// The last processes of a killed command can take a moment to be reaped; an empty group is removed then.
function removeWhenEmpty(dir: string, tries: number): void {
  try {
    rmdirSync(dir);
  } catch {
    if (tries > 0) setTimeout(() => removeWhenEmpty(dir, tries - 1), 50).unref();
  }
}
