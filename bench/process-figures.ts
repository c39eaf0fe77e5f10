/**
 * Wall time and peak RSS of whole processes (process start to exit), for the start-up and job
 * benches. Peak RSS comes from GNU time's %M when /usr/bin/time exists (the usual reference),
 * else from the kernel's rusage that Bun.spawn reports (maxRSS, in bytes).
 */
import { existsSync } from "node:fs";

export type SpawnOptions = { cwd?: string; env?: Record<string, string | undefined> };

const GNU_TIME = "/usr/bin/time";
export const rssSource = existsSync(GNU_TIME) ? "/usr/bin/time -f %M" : "Bun.spawn resourceUsage().maxRSS";

/**
 * One run without any wrapper process: wall time, and CPU time (user + system, all threads), which a
 * busy shared machine disturbs far less than wall time. Throws on a non-zero exit.
 */
export async function timeRun(cmd: string[], opts: SpawnOptions = {}): Promise<{ wallMs: number; cpuMs: number }> {
  const start = performance.now();
  const proc = Bun.spawn(cmd, { ...opts, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const code = await proc.exited;
  const wallMs = performance.now() - start;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${await new Response(proc.stderr).text()}`);
  return { wallMs, cpuMs: Number(proc.resourceUsage()!.cpuTime.total) / 1000 };
}

/** One run's peak resident set size in KiB; throws on a non-zero exit. */
export async function peakRssKib(cmd: string[], opts: SpawnOptions = {}): Promise<number> {
  const viaTime = rssSource.startsWith(GNU_TIME);
  const proc = Bun.spawn(viaTime ? [GNU_TIME, "-f", "%M", ...cmd] : cmd, { ...opts, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  const code = await proc.exited;
  const stderr = await new Response(proc.stderr).text();
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${stderr}`);
  // GNU time prints its figure as the last line of stderr, after anything the command wrote.
  return viaTime ? Number(stderr.trim().split("\n").at(-1)) : proc.resourceUsage()!.maxRSS / 1024;
}

export const mb = (kib: number) => `${((kib * 1024) / 1e6).toFixed(1)} MB`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
