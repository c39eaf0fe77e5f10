import type { BackgroundJob, JobInfo } from "../../process/job-registry.ts";
import { spelledControls } from "../../text/spelled-controls.ts";
import { ToolError, type ToolContext, type ToolOutput } from "../tool.ts";

/** The job a call names, or a line for the model saying which ones there are. */
export function namedJob(ctx: ToolContext, id: number): BackgroundJob {
  const job = ctx.jobs?.get(id);
  if (job) return job;
  const ids = ctx.jobs?.list().map((j) => j.id) ?? [];
  throw new ToolError(`No background job ${id}: ${ids.length ? `this session's are ${ids.join(", ")}` : "none was started in this session (bash with background: true starts one)"}.`);
}

/**
 * What a job printed since the last read and where it stands: running, or how it ended (its exit
 * code). Reading an ended job tells the model of its end, so no note about it follows.
 */
export function jobReport(job: BackgroundJob, ctx: ToolContext, extra: readonly string[] = []): ToolOutput {
  const { text, cut } = job.read();
  const info = job.info();
  if (info.end) ctx.jobs?.told(info.id);
  const body = text === "" ? "(no new output)" : spelledControls(text.replace(/\n$/, ""));
  const whole = cut ? [`${cut} characters were cut from the middle; the whole output is in ${info.log} (read_file).`] : [];
  const lines = [standing(info), ...whole, ...(info.end?.notes ?? []), ...extra];
  return { output: `${body}\n\n${lines.join("\n")}`, isError: info.end?.denied === true || (info.end !== undefined && info.end.how !== "killed" && info.end.code !== 0), ...(info.end?.denied ? { denied: true } : {}) };
}

function standing(info: JobInfo): string {
  const { end } = info;
  if (!end) return `Job ${info.id} is running (pid ${info.pid}): bash_output reads what it prints next, bash_kill stops it.`;
  if (end.how === "killed") return `Job ${info.id} was killed, with every process it started (exit code ${end.code}).`;
  if (end.how === "timeout") return `Job ${info.id} reached its timeout_ms and was killed, with every process it started.`;
  if (end.how === "session") return `Job ${info.id} ended with the session.`;
  return `Job ${info.id} exited with code ${end.code}.`;
}
