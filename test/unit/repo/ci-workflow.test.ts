/**
 * What runs the tests on GitHub (issue 32): ci.yml runs .ci/run on every push and pull request with the
 * packages .ci/run's tests need installed first (the runner's user is no root, so .ci/run would not),
 * under CI=true so a missing one fails; release.yml runs that same workflow and publishes only after it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/binary.ts";
import { releaseWorkflow } from "../../support/release-step.ts";

const ci = Bun.YAML.parse(readFileSync(join(REPO, ".github/workflows/ci.yml"), "utf8")) as any;

test("ci.yml: every branch push and pull request, ubuntu-latest, the packages .ci/run wants and user namespaces, then .ci/run with CI=true", () => {
  expect(ci.on.push.branches).toEqual(["**"]);
  expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push", "workflow_call"]);
  const [job, ...others] = Object.values<any>(ci.jobs);
  expect(others).toEqual([]);
  expect(job["runs-on"]).toBe("ubuntu-latest");
  const steps: any[] = job.steps;
  const runCi = steps.findIndex((s) => s.run === ".ci/run");
  expect(steps[runCi].env).toEqual({ CI: "true" });
  // The packages are the ones .ci/run looks for, installed before it runs.
  const wanted = [...readFileSync(join(REPO, ".ci/run"), "utf8").matchAll(/missing\+=\((\w+)\)/g)].map((m) => m[1]!);
  expect(wanted.sort()).toEqual(["bubblewrap", "ripgrep", "strace"]);
  const install = steps.findIndex((s) => /sudo apt-get install -y/.test(s.run ?? ""));
  expect(install).toBeGreaterThan(-1);
  expect(install).toBeLessThan(runCi);
  for (const name of wanted) expect(steps[install].run).toContain(` ${name}`);
  // bwrap, and the no-user-namespace simulation the Landlock tests make, need what 24.04's AppArmor refuses by default.
  const userns = steps.findIndex((s) => s.run === "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
  expect(userns).toBeGreaterThan(-1);
  expect(userns).toBeLessThan(runCi);
  expect(steps.slice(0, runCi).map((s) => s.uses).filter(Boolean)).toEqual(["actions/checkout@v4", "oven-sh/setup-bun@v2"]);
});

test("release.yml: the tests (ci.yml) run first and the release job, which publishes, needs them", () => {
  const [name, tests] = Object.entries<any>(releaseWorkflow.jobs).find(([, job]) => job.uses === "./.github/workflows/ci.yml")!;
  expect(tests).toEqual({ uses: "./.github/workflows/ci.yml" });
  expect(releaseWorkflow.jobs.release.needs).toBe(name);
  // The same Bun in both.
  const bunOf = (steps: any[]) => steps.find((s) => s.uses === "oven-sh/setup-bun@v2").with["bun-version"];
  expect(bunOf(releaseWorkflow.jobs.release.steps)).toBe(bunOf(Object.values<any>(ci.jobs)[0].steps));
});
