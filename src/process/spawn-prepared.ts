import { closeSync, readSync } from "node:fs";
import type { PreparedCommand } from "./prepared-command.ts";
import { commandArgv, LIFELINE } from "./command-argv.ts";
import { feedPipe } from "./feed-pipe.ts";
import { holdLifeline } from "./lifeline.ts";

// How long a killed command gets to run its exit traps before SIGKILL.
const KILL_GRACE_MS = 1000;

/** A prepared command running: its process, how to end its whole group, and the sandbox's word once it has ended. */
export type SpawnedCommand = {
  proc: Bun.Subprocess<"ignore" | "pipe", "pipe", "pipe">;
  /** SIGTERM to the whole group (exit traps run: a command killed mid-write can leave stale lock files), SIGKILL what remains a moment later. */
  kill(): void;
  /** Once it has ended: what it left that must be told (`PreparedCommand.check`), with what its shell listed on fd 5. */
  aftermath(): { notes: string[]; denied: boolean };
  /** Once it is over: the listing pipe closed, the lifeline let go (killed: left armed until the SIGKILL), its pids group removed. */
  release(): Promise<void>;
};

/**
 * Starts a command the sandbox prepared (or bare argv), as every command of shiro's starts: behind the
 * lifeline watcher (fd 3, command-argv.ts) that kills its group should shiro die, joined to its pids
 * group before anything runs, the sandbox's options fed on fd 4, bwrap's private-writes listing on
 * fd 5, the session's network namespace from fd 6 (`PreparedCommand.fds`). `detached`: it leads its own process group, so one kill reaches everything it started. The
 * bash tool and the hooks both start theirs here; `stdin` is a pipe only for a hook (its event's JSON).
 */
export function spawnPrepared(prepared: PreparedCommand, opts: { cwd: string; env: Readonly<Record<string, string>>; stdin: "ignore" | "pipe" }): SpawnedCommand {
  let proc: SpawnedCommand["proc"];
  try {
    // env given explicitly: Bun.spawn otherwise uses the environment the process started with.
    proc = Bun.spawn(commandArgv(prepared.argv, LIFELINE, prepared.group?.procs), {
      cwd: opts.cwd,
      env: { ...opts.env },
      stdio: [opts.stdin, "pipe", "pipe", LIFELINE ? "pipe" : "ignore", prepared.fd4 ? "pipe" : "ignore", prepared.listsPrivateWrites ? "pipe" : "ignore", ...(prepared.fds ?? [])],
      detached: true,
    });
  } catch (err) {
    // Nothing ran: what the sandbox made for it (a pids group, Landlock's private folders) goes now.
    prepared.check();
    void prepared.group?.release();
    throw err;
  }
  if (prepared.fd4) feedPipe(proc.stdio[4] as number, prepared.fd4);
  const listing = prepared.listsPrivateWrites ? (proc.stdio[5] as number) : undefined;
  const lifeline = holdLifeline(proc.stdio[3] ?? null);
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  let escalation: ReturnType<typeof setTimeout> | undefined;
  return {
    proc,
    kill() {
      signalGroup("SIGTERM");
      escalation ??= setTimeout(() => {
        signalGroup("SIGKILL");
        lifeline.cut();
      }, KILL_GRACE_MS);
    },
    aftermath: () => prepared.check(listing === undefined ? undefined : readWaiting(listing)),
    async release() {
      if (listing !== undefined) closeSync(listing);
      // Killed: the lifeline stays armed until the SIGKILL, so a shiro that exits sooner still kills the rest.
      if (!escalation) lifeline.release();
      // Its pids cgroup goes once empty (moments after the command; at most a few seconds after a kill).
      await prepared.group?.release();
    },
  };
}

/**
 * What waits in a pipe now: the command's shell wrote it before it exited, and the lifeline watcher (which
 * holds the pipe open too) never writes, so this reads until the pipe is empty rather than to its end.
 */
function readWaiting(fd: number): string {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = Buffer.alloc(16_384);
    let n = 0;
    try {
      n = readSync(fd, chunk);
    } catch {
      // EAGAIN: nothing more.
    }
    if (n === 0) return Buffer.concat(chunks).toString("utf8");
    chunks.push(chunk.subarray(0, n));
  }
}
