/**
 * One print-mode run of the compiled binary against its own strict server, driven by a scripted model.
 * Returns what a user and the model saw: exit code, stdout/stderr, and each call's output as the
 * model received it in the request right after the call.
 */
import { runShiro, type ShiroRun } from "./run-shiro.ts";
import { sequenceModel, visibleOutputs, type Step, type VisibleOutput } from "./scripts.ts";
import { startStrictServer, type RecordedRequest } from "./strict-server.ts";

export type JobResult = ShiroRun & {
  requests: RecordedRequest[];
  /** Every call's output, in the order the calls were issued, from the request that first carried it. */
  outputs: (VisibleOutput & { request: number })[];
};

export type JobOptions = { cwd: string; home?: string; args?: string[]; env?: Record<string, string | undefined>; wrap?: readonly string[]; binary?: string; timeoutMs?: number };

export const FINAL = "Finished; I reported what happened.";

export async function scriptedJob(steps: Step[], opts: JobOptions): Promise<JobResult> {
  const server = await startStrictServer({ defaultModel: sequenceModel(steps, FINAL) });
  try {
    const run = await runShiro(["-p", ...(opts.args ?? []), "do the scripted job"], {
      cwd: opts.cwd,
      ...(opts.home ? { home: opts.home } : {}),
      env: { OPENAI_BASE_URL: server.url, ...opts.env },
      ...(opts.wrap ? { wrap: opts.wrap } : {}),
      ...(opts.binary ? { binary: opts.binary } : {}),
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    });
    return { ...run, requests: [...server.requests], outputs: outputsInOrder(server.requests) };
  } finally {
    await server.stop();
  }
}

/** Outputs that appear in request i but not in request i-1 are the model's first sight of them. */
function outputsInOrder(requests: RecordedRequest[]): JobResult["outputs"] {
  const seen = new Set<string>();
  const out: JobResult["outputs"] = [];
  requests.forEach((req, i) => {
    for (const o of visibleOutputs(req.body?.input ?? [])) {
      if (seen.has(o.callId)) continue;
      seen.add(o.callId);
      out.push({ ...o, request: i });
    }
  });
  return out;
}

/** The output a call got, found by its arguments (fails loudly when the call never got one). */
export function outputOf(job: JobResult, name: string, match: (args: any) => boolean): string {
  const found = job.outputs.find((o) => o.name === name && match(o.arguments));
  if (!found) throw new Error(`no output for a ${name} call matching ${match}; outputs: ${JSON.stringify(job.outputs.map((o) => o.arguments))}`);
  return found.output;
}
