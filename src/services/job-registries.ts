import { randomUUID } from "node:crypto";
import { realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJobRegistry, type JobRegistry } from "../process/job-registry.ts";
import { BASH_MAX_OUTPUT_CHARS } from "../tools/shell/bash.ts";
import type { Redactor } from "../tools/tool-host.ts";

/** Where the process keeps its jobs' logs, and the registries each agent opens (docs/jobs.md). */
export type JobRegistries = {
  /** The folder of every job's log: the file tools read it as an added folder. */
  readonly dir: string;
  /** Each agent's own: its jobs end when it closes (a child's with the child, the main one's with its session). */
  open(): JobRegistry;
  /** Called when any job starts or ends (the REPL's status line). */
  onChange(listener: () => void): () => void;
  /** Removes the logs' folder; each registry ended its jobs when its agent closed. */
  close(): void;
};

/** Named for the process and unguessable, made only with a first job. */
export const jobsDir = (): string => join(realpathSync(tmpdir()), `shiro-jobs-${process.pid}-${randomUUID().slice(0, 8)}`);

export function jobRegistries(dir: string, redactor: Redactor): JobRegistries {
  const listeners = new Set<() => void>();
  let opened = 0;
  return {
    dir,
    // What a job prints is kept redacted (its log too), as every output is, through a stream of its own.
    open: () => createJobRegistry({ logDir: join(dir, String(++opened)), unreadMax: BASH_MAX_OUTPUT_CHARS, filter: () => redactor.stream(), onChange: () => listeners.forEach((listener) => listener()) }),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
