import { MAX_RUNNING_JOBS } from "../../process/job-registry.ts";
import { ToolError, type ToolContext, type ToolOutput } from "../tool.ts";
import { jobReport } from "./job-report.ts";
import { prepareShell } from "./prepare-shell.ts";

// How long the call waits for a job's first lines (or its end) before it returns.
const FIRST_LINES_MS = 1000;

/**
 * `bash` with `background: true`: the command starts as a job of the session (the same sandbox, the
 * same rules, asked about as any command) and the call returns with its id and what it printed in
 * its first second. Offline, the session's later commands share its network namespace, so they reach
 * what it serves on 127.0.0.1 (session-network.ts); where the sandbox cannot share one, it says why.
 */
export async function startBackground(command: string, timeoutMs: number | undefined, ctx: ToolContext): Promise<ToolOutput> {
  const jobs = ctx.jobs;
  if (!jobs) throw new ToolError("Background jobs are not available here: run the command without background.");
  if (jobs.running() >= MAX_RUNNING_JOBS) throw new ToolError(`${MAX_RUNNING_JOBS} background jobs are running already: stop one with bash_kill first.`);
  const unshared = await ctx.sandbox?.shareNetwork?.();
  const prepared = prepareShell(command, ctx);
  const job = jobs.start({ command, prepared, cwd: ctx.root, env: ctx.env, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([job.ended, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_LINES_MS)))]);
  clearTimeout(timer);
  const { id, log } = job.info();
  const notes = [`Started background job ${id}; its whole output is logged in ${log}.`, ...(prepared.note ? [prepared.note] : []), ...(unshared ? [`${unshared}.`] : [])];
  return jobReport(job, ctx, notes);
}
