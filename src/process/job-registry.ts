import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startBackgroundJob, type BackgroundJob, type JobInfo, type TextFilter } from "./background-job.ts";
import type { PreparedCommand } from "./prepared-command.ts";

export type { BackgroundJob, JobInfo };

/** At most this many jobs run at once: a model that forgets to stop them meets a clear refusal, not a slow machine. */
export const MAX_RUNNING_JOBS = 16;
// A job's log keeps this much (a dev server may print for hours); what it reads since the last read is kept apart, start and end.
const LOG_MAX_BYTES = 8 * 1024 * 1024;
// How long closing waits for the killed jobs to end (SIGKILL follows SIGTERM after 1 s); the lifeline kills whatever is left when shiro exits.
const CLOSE_GRACE_MS = 2000;

export type StartJob = { command: string; prepared: PreparedCommand; cwd: string; env: Readonly<Record<string, string>>; timeoutMs?: number };

/** The session's background jobs: started by the bash tool, read and killed by bash_output and bash_kill, all ended by `close`. */
export type JobRegistry = {
  /** The folder of the jobs' logs, made with the first job and removed by `close`: the file tools may read it. */
  readonly logDir: string;
  /** Starts a job (the caller checked `running()` against MAX_RUNNING_JOBS before preparing it). */
  start(job: StartJob): BackgroundJob;
  get(id: number): BackgroundJob | undefined;
  list(): JobInfo[];
  running(): number;
  /** Jobs that ended without the model being told (by bash_output, bash_kill or the result that started it): a note in its next request. */
  untold(): JobInfo[];
  /** The model has been told how job `id` ended. */
  told(id: number): void;
  /** Kills every job still running and removes the logs. */
  close(): Promise<void>;
};

/** `filter`: a fresh one per job (the redactor's stream), so its log holds no secret. `onChange`: a job started or ended (the REPL's status line). */
export function createJobRegistry(opts: { logDir: string; unreadMax: number; filter?: () => TextFilter; onChange?: () => void }): JobRegistry {
  const jobs = new Map<number, BackgroundJob>();
  const toldIds = new Set<number>();
  const changed = () => opts.onChange?.();
  let made = false;
  const list = () => [...jobs.values()].map((job) => job.info());
  const running = () => list().filter((job) => !job.end).length;
  return {
    logDir: opts.logDir,
    start(job) {
      if (!made) mkdirSync(opts.logDir, { recursive: true, mode: 0o700 });
      made = true;
      const id = jobs.size + 1;
      const filter = opts.filter?.();
      const started = startBackgroundJob({ ...job, id, log: join(opts.logDir, `${id}.log`), logMax: LOG_MAX_BYTES, unreadMax: opts.unreadMax, ...(filter ? { filter } : {}), onEnd: changed });
      jobs.set(id, started);
      changed();
      return started;
    },
    get: (id) => jobs.get(id),
    list,
    running,
    untold: () => list().filter((job) => job.end && !toldIds.has(job.id)),
    told: (id) => void toldIds.add(id),
    async close() {
      const ends = [...jobs.values()].map((job) => job.kill("session"));
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(ends), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
      if (made) rmSync(opts.logDir, { recursive: true, force: true });
    },
  };
}
