import { z } from "zod";
import { defineTool } from "../tool.ts";
import { jobReport, namedJob } from "./job-report.ts";

const schema = z.object({ id: z.number().int().min(1) });

/** `bash_kill`: ends a background job and every process it started, and says what it printed last. */
export const bashKill = defineTool({
  name: "bash_kill",
  description: "End a background job and every process it started; returns its last output.",
  schema,
  kind: "meta",
  subject: (args) => ({ action: `job ${args.id}` }),
  async run(args, ctx) {
    const job = namedJob(ctx, args.id);
    await job.kill();
    return jobReport(job, ctx);
  },
});
