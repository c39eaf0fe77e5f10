import { z } from "zod";
import { defineTool } from "../tool.ts";
import { jobReport, namedJob } from "./job-report.ts";

export const BASH_OUTPUT_MAX_WAIT_S = 600;

const schema = z.object({
  id: z.number().int().min(1),
  wait: z.number().min(0).max(BASH_OUTPUT_MAX_WAIT_S).optional(),
});

/** `bash_output`: what a background job printed since the last read, and whether it ended. */
export const bashOutput = defineTool({
  name: "bash_output",
  description: "A background job's output since the last read, and whether it ended (its exit code). `wait`: seconds to wait for new output or its end first.",
  schema,
  kind: "meta",
  subject: (args) => ({ action: `job ${args.id}` }),
  async run(args, ctx) {
    const job = namedJob(ctx, args.id);
    if (args.wait) await within(job.heard(), args.wait * 1000, ctx.signal);
    return jobReport(job, ctx);
  },
});

/** Until `work` settles, `ms` pass or the turn is aborted, whichever comes first. */
async function within(work: Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const over = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    onAbort = resolve;
    signal.addEventListener("abort", onAbort, { once: true });
  });
  await Promise.race([work, over]);
  clearTimeout(timer);
  signal.removeEventListener("abort", onAbort!);
}
