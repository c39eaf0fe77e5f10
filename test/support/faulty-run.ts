/**
 * One print-mode run of the binary against a strict server of its own serving the given faults in
 * order, so runs that mostly wait out backoffs can go side by side. Asserted by what the server saw.
 */
import { runShiro, tempDir, type ShiroRun } from "./run-shiro.ts";
import { startStrictServer, type RecordedRequest, type StrictServer, type StrictServerOptions } from "./strict-server.ts";
import type { Fault } from "./faults.ts";

export type FaultyRun = ShiroRun & { home: string; ms: number; requests: RecordedRequest[] };

export async function runWithFaults(
  prompt: string,
  faults: Fault[],
  opts: { args?: string[]; home?: string; server?: StrictServerOptions; model?: string } = {},
): Promise<FaultyRun> {
  const own: StrictServer = await startStrictServer(opts.server);
  own.inject(...faults);
  const home = opts.home ?? tempDir("wire-home");
  const started = performance.now();
  try {
    const r = await runShiro(["-p", "-m", opts.model ?? "echo-model", ...(opts.args ?? []), prompt], { cwd: tempDir("wire"), home, env: { OPENAI_BASE_URL: own.url }, timeoutMs: 40_000 });
    return { ...r, home, ms: performance.now() - started, requests: own.requests };
  } finally {
    await own.stop();
  }
}

/** Milliseconds between consecutive requests' arrivals at the server. */
export const gaps = (requests: RecordedRequest[]) => requests.slice(1).map((r, i) => r.at - requests[i]!.at);

export const retryLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("! retrying model call"));
