import { runShiro, type ShiroOptions } from "./run-shiro.ts";

/**
 * Every call's request body as `shiro inspect <session> <call> --json` prints it (the bytes sent),
 * in order; how many calls there are comes from the overview's `--json`.
 */
export async function inspectedBodies(id: string, opts: ShiroOptions): Promise<string[]> {
  const overview = await runShiro(["inspect", id, "--json"], opts);
  if (overview.code !== 0) throw new Error(`shiro inspect ${id} --json: exit ${overview.code}: ${overview.stderr}`);
  const { calls } = JSON.parse(overview.stdout) as { calls: number };
  const bodies = await Promise.all(Array.from({ length: calls }, (_, i) => runShiro(["inspect", id, String(i + 1), "--json"], opts)));
  return bodies.map((r) => r.stdout.trimEnd());
}
