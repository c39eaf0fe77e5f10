/**
 * Wall time, CPU time and peak RSS of whole processes (process start to exit), for the start-up and
 * job benches.
 */
import { existsSync, readFileSync } from "node:fs";

export type SpawnOptions = { cwd?: string; env?: Record<string, string | undefined> };

// Not Bun.spawn's resourceUsage().maxRSS: Bun spawns with a shared address space (vfork-style), so
// Linux counts the parent's own peak into the child's and every figure reads ≥ the bench's RSS.
// GNU time forks a fresh child; without it, the child's VmHWM is sampled while it runs.
const GNU_TIME = "/usr/bin/time";
const viaTime = existsSync(GNU_TIME);
export const rssSource = viaTime ? `${GNU_TIME} -f %M` : "VmHWM in /proc/<pid>/status, sampled every ms";

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
  const proc = Bun.spawn(viaTime ? [GNU_TIME, "-f", "%M", ...cmd] : cmd, { ...opts, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  let sampled = 0;
  const sampler = viaTime ? undefined : setInterval(() => (sampled = Math.max(sampled, vmHwmKib(proc.pid))), 1);
  const code = await proc.exited;
  clearInterval(sampler);
  const stderr = await new Response(proc.stderr).text();
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${stderr}`);
  // GNU time prints its figure as the last line of stderr, after anything the command wrote.
  return viaTime ? Number(stderr.trim().split("\n").at(-1)) : sampled;
}

function vmHwmKib(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0; // already gone
  }
}

export const mb = (kib: number) => `${((kib * 1024) / 1e6).toFixed(1)} MB`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
