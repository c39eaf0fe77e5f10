import { closeSync, openSync, writeSync } from "node:fs";
import { CappedOutput } from "./capped-output.ts";
import type { PreparedCommand } from "./prepared-command.ts";
import { pumpText } from "./pump-text.ts";
import { spawnPrepared } from "./spawn-prepared.ts";

/** How a job ended: on its own, killed (bash_kill, /jobs kill), at its time limit, or with the session. */
export type JobEnding = "exit" | "killed" | "timeout" | "session";

export type JobEnd = {
  how: JobEnding;
  /** Its exit code, or 128 + the signal's number when a signal ended it (as Bun reports it). */
  code: number;
  /** The sandbox's word once it ended (a secret file it made, what it left in its private folders). */
  notes: string[];
  denied: boolean;
  at: number;
};

/** What anyone may know of a job without reading its output. */
export type JobInfo = { id: number; command: string; pid: number; startedAt: number; log: string; end?: JobEnd };

/** A filter every chunk passes before it is kept (the redactor's stream): nothing secret lands in the log. */
export type TextFilter = { push(chunk: string): string; flush(): string };

export type JobOptions = {
  id: number;
  command: string;
  prepared: PreparedCommand;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** A new file for its whole output, up to `logMax` bytes. */
  log: string;
  logMax: number;
  /** How much unread output is kept between reads: its start and its end. */
  unreadMax: number;
  filter?: TextFilter;
  timeoutMs?: number;
  onEnd: () => void;
};

// After the job's shell exits, how long what it left may keep the output pipes open before its group is killed.
const PIPE_GRACE_MS = 250;

export type BackgroundJob = ReturnType<typeof startBackgroundJob>;

/**
 * A command left running while the session goes on, started as every command is (spawn-prepared.ts:
 * its own process group, the lifeline that kills the group should shiro die, its pids group): its
 * output kept whole in a log file and, since the last read, in memory (start and end), its end awaited.
 */
export function startBackgroundJob(o: JobOptions) {
  const logFd = openSync(o.log, "wx", 0o600);
  let command: ReturnType<typeof spawnPrepared>;
  try {
    command = spawnPrepared(o.prepared, { cwd: o.cwd, env: o.env, stdin: "ignore" });
  } catch (err) {
    closeSync(logFd);
    throw err;
  }
  const { proc } = command;
  const startedAt = Date.now();
  const log = cappedLog(logFd, o.logMax);
  let unread = new CappedOutput(o.unreadMax);
  let waiting: (() => void)[] = [];
  const wake = () => waiting.splice(0).forEach((resolve) => resolve());
  const keep = (text: string) => {
    if (!text) return;
    unread.push(text);
    log.write(text);
    wake();
  };
  const pipes = Promise.all([pumpText(proc.stdout, (chunk) => keep(o.filter ? o.filter.push(chunk) : chunk)), pumpText(proc.stderr, (chunk) => keep(o.filter ? o.filter.push(chunk) : chunk))]);
  let ending: JobEnding = "exit";
  const stop = (why: JobEnding) => {
    if (ending === "exit") ending = why;
    command.kill();
  };
  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), o.timeoutMs);
  let end: JobEnd | undefined;

  const ended = (async (): Promise<JobEnd> => {
    const code = await proc.exited;
    clearTimeout(timer);
    // What it started and left holding the output (outside a sandbox's process namespace) goes with it.
    const drained = await Promise.race([pipes.then(() => true), Bun.sleep(PIPE_GRACE_MS).then(() => false)]);
    if (!drained) {
      command.kill();
      await pipes;
    }
    if (o.filter) keep(o.filter.flush());
    log.close();
    const after = command.aftermath();
    await command.release();
    end = { how: ending, code, notes: after.notes, denied: after.denied, at: Date.now() };
    wake();
    o.onEnd();
    return end;
  })();

  return {
    info: (): JobInfo => ({ id: o.id, command: o.command, pid: proc.pid, startedAt, log: o.log, ...(end ? { end } : {}) }),
    ended,
    /** Resolves once there is unread output or the job has ended. */
    heard: (): Promise<void> => (end || unread.size() > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    /** What it printed since the last read (start and end kept, the cut noted), and how many characters were cut. */
    read(): { text: string; cut: number } {
      const read = { text: unread.text(), cut: unread.cut() };
      unread = new CappedOutput(o.unreadMax);
      return read;
    },
    /** Ends its whole process group (SIGTERM, SIGKILL a moment later) and waits for its end. */
    kill(why: Exclude<JobEnding, "exit"> = "killed"): Promise<JobEnd> {
      if (!end) stop(why);
      return ended;
    },
  };
}

/** Appends to `fd` until `max` bytes, then one line saying the log ends there. */
function cappedLog(fd: number, max: number) {
  let written = 0;
  return {
    write(text: string) {
      if (written >= max) return;
      const bytes = Buffer.from(text);
      const room = max - written;
      writeSync(fd, bytes.length <= room ? bytes : Buffer.concat([bytes.subarray(0, room), Buffer.from(`\n[shiro: the log ends here, at ${max} bytes; the job went on]\n`)]));
      written += bytes.length;
    },
    close: () => closeSync(fd),
  };
}
