/**
 * The action before any release exists: with `version: latest` the release's SHA256SUMS is a 404, so
 * action/run.sh says so in one notice line, builds shiro from the action's own checkout and runs it;
 * `version: source` builds it without asking any release. The checkout is a copy of this repository's
 * sources (as a runner downloads an action), with node_modules already there so `bun install
 * --frozen-lockfile` needs no network — its registry is a closed loopback port to be sure.
 */
import { expect, test } from "bun:test";
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { runActionStep, serveReleases } from "../../support/action-run.ts";
import { REPO } from "../../support/binary.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";

/** A copy of what the build reads; node_modules hard-linked where it can be (a copy where it cannot). */
function actionCheckout(): string {
  const dir = tempDir("action-checkout");
  for (const entry of ["src", "build.ts", "package.json", "bun.lock", "tsconfig.json", "action"]) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  const linked = Bun.spawnSync(["cp", "-al", join(REPO, "node_modules"), join(dir, "node_modules")]);
  if (linked.exitCode !== 0) cpSync(join(REPO, "node_modules"), join(dir, "node_modules"), { recursive: true });
  return dir;
}

test("no release yet: `latest` says so in one notice line, builds shiro from the action's checkout and runs it; `version: source` always builds", async () => {
  const api = await startStrictServer({ models: { "gpt-5": echoModel } });
  const releases = serveReleases(tempDir("no-releases")); // every file a 404, as GitHub answers before the first release
  const action = actionCheckout();
  const env = { OPENAI_BASE_URL: api.url, GITHUB_ACTION_PATH: action, BUN_CONFIG_REGISTRY: "http://127.0.0.1:9/", npm_config_registry: "http://127.0.0.1:9/" };
  try {
    const latest = await runActionStep({ cwd: tempDir("action-ws"), inputs: { prompt: "hello before any release", "release-url": releases.url("latest") }, env });
    expect([latest.code, latest.stderr, latest.outputs.result]).toEqual([0, "", "You said: hello before any release"]);
    const notices = latest.stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(notices).toEqual([`::notice::shiro action: no shiro release at ${releases.url("latest")} yet, so shiro is built from the action's own checkout (version: source)`]);
    expect(latest.stdout).toContain(`building shiro from ${action} with Bun ${Bun.version}\n`);
    expect(existsSync(join(action, "dist/shiro"))).toBe(true);

    // No release is asked for: a release-url nothing listens on would fail the step.
    const source = await runActionStep({ cwd: tempDir("action-ws"), inputs: { prompt: "hello from the source", version: "source", "release-url": "http://127.0.0.1:9/none" }, env });
    expect([source.code, source.stderr, source.outputs.result]).toEqual([0, "", "You said: hello from the source"]);
    expect(source.stdout).not.toContain("::notice::");
    expect(source.stdout).toContain(`building shiro from ${action}`);
  } finally {
    releases.stop();
    await api.stop();
  }
}, 300_000);
