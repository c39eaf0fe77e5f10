import type { JobInfo } from "../process/job-registry.ts";
import { namedCommand } from "../session/job-note.ts";
import { alignColumns } from "../text/align-columns.ts";
import { plural } from "../text/plural.ts";
import type { ReplCommand } from "./repl-command.ts";

/**
 * `/jobs`: the session's background jobs (the model's `bash` with `background`), running or how each
 * ended; `/jobs kill <id>` ends one and every process it started, as bash_kill would.
 */
export const jobsCommand: ReplCommand = {
  name: "jobs",
  args: "[kill <id>]",
  summary: "list the background jobs, or kill one",
  run: async (ctx, arg) => {
    const jobs = ctx.current.agent.jobs;
    const [verb, id] = arg.split(/\s+/).filter(Boolean);
    if (verb === undefined) {
      const list = jobs.list();
      if (!list.length) return ctx.print("no background jobs in this session (the model starts one with bash's background: true)");
      return ctx.print(alignColumns(list.map((job) => [`${job.id}`, standing(job), `${Math.round((Date.now() - job.startedAt) / 1000)} s`, namedCommand(job.command)]), { width: ctx.columns() - 1 }).join("\n"));
    }
    const job = verb === "kill" && id !== undefined && /^\d+$/.test(id) ? jobs.get(Number(id)) : undefined;
    if (!job) return ctx.print(verb === "kill" ? `! no background job ${id ?? ""}: /jobs lists them` : "usage: /jobs, or /jobs kill <id>");
    if (job.info().end) return ctx.print(`job ${id} has ended already (${standing(job.info())})`);
    const end = await job.kill();
    ctx.print(`job ${id} killed, with every process it started (exit code ${end.code}); ${plural(jobs.running(), "job")} still running`);
  },
};

function standing(job: JobInfo): string {
  const { end } = job;
  if (!end) return `running (pid ${job.pid})`;
  if (end.how === "exit") return `exited ${end.code}`;
  return end.how === "timeout" ? "timed out" : end.how;
}
