/**
 * The `long` job (40 dependent reads of 4,000-char files, --compact-at 6000) through the compiled
 * binary against the strict local API: bytes sent, and the share of each request the prompt cache
 * reused (the server's `cached_tokens`: the prefix shared with the previous request). Aim: ≥80%.
 */
import { rmSync } from "node:fs";
import { ensureBinary } from "../test/support/binary.ts";
import { cachedShares, LONG_JOB, longJobPrompt, readingModel, readingProject } from "../test/support/long-job.ts";
import { runShiro } from "../test/support/run-shiro.ts";
import { startStrictServer, type RecordedRequest } from "../test/support/strict-server.ts";

const pct = (x: number) => `${Math.round(x * 100)}%`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function longJob(compactAt: number | undefined): Promise<RecordedRequest[]> {
  const server = await startStrictServer({ models: { [LONG_JOB.model]: readingModel(LONG_JOB.prefix, LONG_JOB.files) } });
  const project = readingProject(LONG_JOB.prefix, LONG_JOB.files, LONG_JOB.chars);
  try {
    const args = ["-p", "--yolo", "-m", LONG_JOB.model, ...(compactAt ? ["--compact-at", String(compactAt)] : []), longJobPrompt()];
    const r = await runShiro(args, { cwd: project, env: { OPENAI_BASE_URL: server.url }, timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`the long job failed (exit ${r.code}): ${r.stderr.trim()}`);
    return server.requests;
  } finally {
    await server.stop();
    rmSync(project, { recursive: true, force: true });
  }
}

export async function bench(): Promise<string[]> {
  ensureBinary();
  const lines: string[] = [];
  for (const compactAt of [LONG_JOB.compactAt, undefined]) {
    const reqs = await longJob(compactAt);
    const bytes = reqs.reduce((n, q) => n + Buffer.byteLength(q.raw), 0);
    const shares = cachedShares(reqs);
    const label = compactAt ? `--compact-at ${compactAt}` : "no compaction (default threshold)";
    lines.push(`long job, ${label}: ${reqs.length} requests, ${bytes.toLocaleString("en-US")} bytes sent, last request ${Buffer.byteLength(reqs.at(-1)!.raw).toLocaleString("en-US")} bytes`);
    lines.push(`  cached share after the first: mean ${pct(mean(shares))}, min ${pct(Math.min(...shares))}`);
    if (compactAt) lines.push(`  per request: ${shares.map(pct).join(" ")}`);
  }
  return lines;
}
