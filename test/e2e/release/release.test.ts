/**
 * The release workflow (.github/workflows/release.yml) as a tag would run it: its build step, run here
 * on a copy of the sources, must leave every target the action downloads with a SHA256SUMS that holds;
 * the host's binary from that release is then fetched, checked and run by action/run.sh. A tag that is
 * not the package's version stops the step before anything is built.
 */
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOST_ASSET, runActionStep, serveReleases } from "../../support/action-run.ts";
import { REPO } from "../../support/binary.ts";
import { releaseStep, releaseWorkflow, runReleaseStep } from "../../support/release-step.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import pkg from "../../../package.json" with { type: "json" };

const TAG = `v${pkg.version}`;
const root = tempDir("release");
afterAll(() => rmSync(root, { recursive: true, force: true })); // half a gigabyte of binaries

/** The build step in a fresh copy of what it builds from, as the runner runs a `shell: bash` step. */
async function runBuildStep(tag: string) {
  const checkout = join(root, `checkout-${tag}`);
  for (const entry of ["src", "build.ts", "package.json", "bun.lock", "tsconfig.json"]) cpSync(join(REPO, entry), join(checkout, entry), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(checkout, "node_modules")); // what the install step leaves
  // Its own HOME: the other targets' Bun runtimes are fetched (from the npm registry) into its cache.
  const home = join(root, `home-${tag}`);
  mkdirSync(home);
  return { ...(await runReleaseStep("build", { cwd: checkout, tag, env: { HOME: home } })), dist: join(checkout, "dist") };
}

/** The file run.sh asks a release for on each GitHub runner it has a build for, in its own words. */
async function assetsTheActionWants(): Promise<string[]> {
  const releases = serveReleases(root);
  mkdirSync(join(root, "empty"));
  writeFileSync(join(root, "empty", "SHA256SUMS"), "");
  const wanted: string[] = [];
  try {
    for (const os of ["Linux", "macOS", "Windows"])
      for (const arch of ["X64", "ARM64"]) {
        const r = await runActionStep({ cwd: tempDir("action-ws"), inputs: { prompt: "x", "release-url": releases.url("empty") }, env: { RUNNER_OS: os, RUNNER_ARCH: arch } });
        const asked = /SHA256SUMS has no line for (\S+)/.exec(r.stderr)?.[1];
        if (asked) wanted.push(asked);
        else expect(r.stderr).toContain("::error::shiro action: no shiro build for windows-arm64");
      }
  } finally {
    releases.stop();
  }
  return wanted.sort();
}

let build: ReturnType<typeof runBuildStep> | undefined;
const built = () => (build ??= runBuildStep(TAG));

test("a tag builds every target the action downloads, each with its line in SHA256SUMS, the host's saying the tag's version", async () => {
  const { code, stdout, stderr, dist } = await built();
  expect([code, stderr.includes("::error::")]).toEqual([0, false]);
  expect(stdout).toContain(`shiro ${pkg.version}\n`);
  const wanted = await assetsTheActionWants();
  expect(wanted).toEqual(["shiro-darwin-arm64", "shiro-darwin-x64", "shiro-linux-arm64", "shiro-linux-x64", "shiro-windows-x64.exe"]);
  expect(readdirSync(dist).sort()).toEqual(["SHA256SUMS", ...wanted].sort());
  const sums = readFileSync(join(dist, "SHA256SUMS"), "utf8").trim().split("\n").map((line) => line.split(/ +/).reverse());
  expect(sums.map(([name]) => name).sort()).toEqual(wanted);
  for (const [name, hash] of sums) expect([name, createHash("sha256").update(readFileSync(join(dist, name!))).digest("hex")]).toEqual([name, hash]);
  // The publish step uploads what the build left: the binaries by glob, and the sums.
  const publish = releaseStep("publish").run;
  expect(publish).toContain(`gh release create "$TAG" dist/shiro-* dist/SHA256SUMS`);
  expect([...new Bun.Glob("dist/shiro-*").scanSync({ cwd: join(dist, "..") })].sort()).toEqual(wanted.map((w) => `dist/${w}`));
  expect(releaseWorkflow.on.push.tags).toEqual(["v*"]);
  expect(releaseWorkflow.permissions.contents).toBe("write");
}, 300_000);

test("the action fetches this machine's binary from that release, checks it against its SHA256SUMS and runs it", async () => {
  const { code, dist } = await built();
  expect(code).toBe(0);
  const api = await startStrictServer({ models: { "gpt-5": echoModel } });
  const releases = serveReleases(join(dist, ".."));
  try {
    const r = await runActionStep({ cwd: tempDir("action-ws"), inputs: { prompt: "hello from the release", "release-url": releases.url("dist") }, env: { OPENAI_BASE_URL: api.url } });
    expect([r.code, r.stderr, r.outputs.result]).toEqual([0, "", "You said: hello from the release"]);
    expect(readFileSync(join(r.runnerTemp, "shiro-action", HOST_ASSET))).toEqual(readFileSync(join(dist, HOST_ASSET)));
  } finally {
    releases.stop();
    await api.stop();
  }
}, 300_000);

test("a tag that is not the package's version: one error line naming both, nothing built", async () => {
  const r = await runBuildStep("v9.9.9");
  expect(r.code).toBe(1);
  expect(r.stdout).toBe(`::error::the tag v9.9.9 does not name the version in package.json (${pkg.version}): tag ${TAG}, or set the version first\n`);
  expect(existsSync(r.dist)).toBe(false);
});
