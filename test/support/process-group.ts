import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * The bash command the signal tests run: it writes `started` once it runs, then would write `canary`
 * after CANARY_MS unless it is killed first. Inside the sandbox its own `$$` is a pid of its own
 * namespace, so its group is found from outside, by the folder it runs in (waitForGroup).
 */
export const CANARY_MS = 1500;
export const GROUP_COMMAND = `echo started > started; sleep ${CANARY_MS / 1000}; touch canary`;

/** `/proc/<pid>/stat` after the command name: state, ppid, pgrp, … */
function statFields(pid: string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ");
  } catch {
    return undefined; // gone meanwhile
  }
}

/** The live processes (zombies do not count) of process group `pgid`, found by scanning /proc (Linux). */
export function groupMembers(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const fields = statFields(pid);
      return fields !== undefined && fields[0] !== "Z" && Number(fields[2]) === pgid;
    })
    .map(Number);
}

/** The process group of the command running in `cwd`, once it has started (every member runs there). */
export async function waitForGroup(cwd: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(join(cwd, "started"))) {
      const groups = new Set(processesIn(cwd).map((pid) => Number(statFields(pid)?.[2])));
      if (groups.size !== 1) throw new Error(`expected one process group in ${cwd}, found ${[...groups].join(", ") || "none"}`);
      return [...groups][0]!;
    }
    if (Date.now() > deadline) throw new Error(`the command did not start in ${cwd} within ${timeoutMs} ms`);
    await Bun.sleep(20);
  }
}

/** Live processes whose working folder is `cwd` (shiro itself is left out: it runs there too, in its own group). */
function processesIn(cwd: string): string[] {
  return readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
    try {
      const fields = statFields(pid);
      return fields !== undefined && fields[0] !== "Z" && readlinkSync(`/proc/${pid}/cwd`) === cwd && !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dist/shiro");
    } catch {
      return false;
    }
  });
}
