/**
 * The release workflow's steps (.github/workflows/release.yml) run here as a runner runs a `shell: bash`
 * step, in a folder standing for the checkout: the tag in for `${{ github.ref_name }}`, secrets as given.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./binary.ts";

export const releaseWorkflow = Bun.YAML.parse(readFileSync(join(REPO, ".github/workflows/release.yml"), "utf8")) as any;

export function releaseStep(id: string): { run: string; env?: Record<string, string> } {
  const step = releaseWorkflow.jobs.release.steps.find((s: any) => s.id === id);
  if (!step) throw new Error(`release.yml's release job has no step with id ${id}`);
  return step;
}

export type StepRun = { cwd: string; tag: string; env?: Record<string, string>; secrets?: Record<string, string> };

export async function runReleaseStep(id: string, { cwd, tag, env = {}, secrets = {} }: StepRun) {
  const step = releaseStep(id);
  const given = (value: string) =>
    value.replaceAll("${{ github.ref_name }}", tag).replace(/\$\{\{ secrets\.(\w+) \}\}/g, (_, name: string) => secrets[name] ?? "");
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, given(v)]));
  if (Object.values(stepEnv).join(" ").includes("${{")) throw new Error(`the ${id} step reads a value this test does not give: ${JSON.stringify(step.env)}`);
  const proc = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], {
    cwd,
    env: { ...process.env, ...env, ...stepEnv },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}
