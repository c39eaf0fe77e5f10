import { existsSync, readdirSync, readFileSync } from "node:fs";

/**
 * The bash command the signal tests run: it writes its `$$` (the shell leads the command's process
 * group) to `pgid`, then would write `canary` after CANARY_MS unless it is killed first.
 */
export const CANARY_MS = 1500;
export const GROUP_COMMAND = `echo $$ > pgid; sleep ${CANARY_MS / 1000}; touch canary`;

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

/** The group the command wrote to `path`, once it is there (it leads that group: checked). */
export async function waitForGroup(path: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, "utf8") : "";
    if (text.endsWith("\n")) {
      const pid = Number(text.trim());
      if (Number(statFields(String(pid))?.[2]) !== pid) throw new Error(`process ${pid} does not lead its own process group`);
      return pid;
    }
    if (Date.now() > deadline) throw new Error(`${path} was not written within ${timeoutMs} ms`);
    await Bun.sleep(20);
  }
}
