/**
 * The npm packages as the release workflow makes and publishes them (npm/pack.ts through its `pack`
 * step), installed the way a user installs them: `npm i -g shiro-neko` into a temp prefix, from a
 * registry on loopback holding the six tarballs. npm must choose this machine's package by its `os`
 * and `cpu` and fetch no other; the `shiro` it links runs the binary (version, answers, exit codes,
 * a SIGTERM passed on). Without a binary for the platform the launcher says so in one line.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NPM_PLATFORMS, type NpmPlatform } from "../../../npm/pack.ts";
import { serveReleases } from "../../support/action-run.ts";
import { BINARY, REPO } from "../../support/binary.ts";
import { manifestOf, serveNpmRegistry } from "../../support/npm-registry.ts";
import { releaseStep, releaseWorkflow, runReleaseStep } from "../../support/release-step.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { waitUntil } from "../../support/wait-until.ts";
import pkg from "../../../package.json" with { type: "json" };

const TAG = `v${pkg.version}`;
const PLATFORM = `${process.platform}-${process.arch}`;
const checkout = tempDir("npm-checkout");
const npmDir = join(checkout, "dist/npm");
let registry: ReturnType<typeof serveNpmRegistry>;
let api: StrictServer;

/** npm with nothing of this machine's: its own cache and empty config, the registry given, no audit or notices. */
function npmEnv(registryUrl: string) {
  const dir = tempDir("npm-config");
  writeFileSync(join(dir, "npmrc"), "");
  return {
    npm_config_cache: join(dir, "cache"),
    npm_config_userconfig: join(dir, "npmrc"),
    npm_config_registry: `${registryUrl}/`,
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
}

async function run(argv: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(argv, { cwd: tempDir("npm-cwd"), stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, OPENAI_API_KEY: TEST_API_KEY, NO_COLOR: "1", ...env } });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}

/** `npm install -g shiro-neko` into a new prefix. */
async function installGlobally() {
  const prefix = tempDir("npm-prefix");
  const r = await run(["npm", "install", "-g", "--prefix", prefix, "shiro-neko"], npmEnv(registry.url));
  expect([r.code, r.stderr]).toEqual([0, ""]);
  return prefix;
}

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

beforeAll(async () => {
  // The checkout as the pack step finds it: the sources it reads, and the binaries `bun build.ts --all`
  // left — this machine's the real one, the others stand-ins npm must never fetch here.
  cpSync(join(REPO, "npm"), join(checkout, "npm"), { recursive: true });
  copyFileSync(join(REPO, "package.json"), join(checkout, "package.json"));
  mkdirSync(join(checkout, "dist"));
  for (const [platform, file] of Object.entries(NPM_PLATFORMS)) {
    if (platform === PLATFORM) copyFileSync(BINARY, join(checkout, "dist", file));
    else writeFileSync(join(checkout, "dist", file), `not a binary for ${PLATFORM}\n`);
  }
  const packed = await runReleaseStep("pack", { cwd: checkout, tag: TAG, env: npmEnv("http://127.0.0.1:9") });
  expect([packed.code, packed.stderr]).toEqual([0, ""]);
  registry = serveNpmRegistry(readdirSync(npmDir).filter((f) => f.endsWith(".tgz")).map((f) => join(npmDir, f)));
  api = await startStrictServer({ models: { "gpt-5": echoModel } });
}, 120_000);
afterAll(async () => {
  registry?.stop();
  await api?.stop();
});

test("the pack step makes a package per platform (its os and cpu, the binary) and shiro-neko naming them all at package.json's version", () => {
  const tarballs = readdirSync(npmDir).filter((f) => f.endsWith(".tgz")).sort();
  expect(tarballs).toEqual(["shiro-neko.tgz", ...Object.keys(NPM_PLATFORMS).map((p) => `shiro-neko-${p}.tgz`)].sort());
  for (const platform of Object.keys(NPM_PLATFORMS)) {
    const [os, cpu] = platform.split("-");
    expect(manifestOf(join(npmDir, `shiro-neko-${platform}.tgz`))).toMatchObject({ name: `@shiro-neko/${platform}`, version: pkg.version, os: [os], cpu: [cpu] });
  }
  const main = manifestOf(join(npmDir, "shiro-neko.tgz"));
  expect(main).toMatchObject({ name: "shiro-neko", version: pkg.version, bin: { shiro: "bin/shiro.js" } });
  expect(main.optionalDependencies).toEqual(Object.fromEntries(Object.keys(NPM_PLATFORMS).map((p) => [`@shiro-neko/${p}`, pkg.version])));
  expect(main.dependencies).toBeUndefined(); // the launcher is plain Node.js
  // The launcher looks for the same platforms the packages are made for.
  const launcher = readFileSync(join(REPO, "npm/shiro.cjs"), "utf8");
  expect(JSON.parse(/const PLATFORMS = (\[.*\]);/.exec(launcher)![1]!)).toEqual(Object.keys(NPM_PLATFORMS));
});

/** The README's check of what npm installed, with the release's folder at `releases` instead of GitHub's. */
async function readmeCheck(prefix: string, releases: string) {
  const intro = readFileSync(join(REPO, "README.md"), "utf8").split("\n## ")[0]!;
  const block = [...intro.matchAll(/```sh\n([^`]*)```/g)].map((m) => m[1]!).find((b) => b.includes("SHA256SUMS"))!;
  const script = block.replaceAll("https://github.com/shiro-neko/shiro-neko/releases/download", releases);
  expect(script).not.toContain("github.com");
  return run(["bash", "-eo", "pipefail", "-c", script], { PATH: `${join(prefix, "bin")}:${process.env.PATH}`, npm_config_prefix: prefix });
}

describe.skipIf(!(PLATFORM in NPM_PLATFORMS))("npm i -g shiro-neko", () => {
  test("installs the launcher and this platform's package only; `shiro` runs the release's binary, its answers and exit codes", async () => {
    const before = registry.requested.length;
    const prefix = await installGlobally();
    const fetched = registry.requested.slice(before).filter((path) => path.startsWith("/-/"));
    expect(fetched.sort()).toEqual(["/-/shiro-neko.tgz", `/-/shiro-neko-${PLATFORM}.tgz`].sort());
    // Where docs and the README say the binary is, byte for byte the file the release's SHA256SUMS names.
    const installed = join(prefix, "lib/node_modules/shiro-neko/node_modules/@shiro-neko", PLATFORM, "bin/shiro");
    expect(sha256(installed)).toBe(sha256(join(checkout, "dist", NPM_PLATFORMS[PLATFORM as NpmPlatform])));
    const shiro = join(prefix, "bin/shiro");
    expect(await run([shiro, "--version"])).toEqual({ code: 0, stdout: `shiro ${pkg.version}\n`, stderr: "" });
    const answered = await run([shiro, "-p", "--ephemeral", "hello through npm"], { OPENAI_BASE_URL: api.url });
    expect([answered.code, answered.stdout, answered.stderr]).toEqual([0, "You said: hello through npm\n", ""]);
    const usage = await run([shiro, "--no-such-flag"]);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining("--no-such-flag")]);
  }, 120_000);

  test.skipIf(PLATFORM !== "linux-x64")("the README's check: what npm installed is the release's binary by its SHA256SUMS; a control with another sum fails", async () => {
    const prefix = await installGlobally();
    // A release's SHA256SUMS as build.ts --all writes it, served on loopback; and one whose sums are all another.
    const release = (hash: (file: string) => string) => {
      const root = tempDir("npm-release");
      mkdirSync(join(root, TAG));
      writeFileSync(join(root, TAG, "SHA256SUMS"), Object.values(NPM_PLATFORMS).map((file) => `${hash(file)}  ${file}\n`).join(""));
      return serveReleases(root);
    };
    const [real, tampered] = [release((file) => sha256(join(checkout, "dist", file))), release(() => "0".repeat(64))];
    try {
      expect(await readmeCheck(prefix, real.url("").slice(0, -1))).toEqual({ code: 0, stdout: "shiro-linux-x64: OK\n", stderr: "" });
      const control = await readmeCheck(prefix, tampered.url("").slice(0, -1));
      expect([control.code, control.stdout]).toEqual([1, "shiro-linux-x64: FAILED\n"]);
    } finally {
      real.stop();
      tampered.stop();
    }
  }, 120_000);

  test("a SIGTERM to the launcher (a runner's timeout) reaches shiro, which stops; the launcher ends by the same signal", async () => {
    const prefix = await installGlobally();
    // Print mode waits for stdin to end; it never does here.
    const proc = Bun.spawn([join(prefix, "bin/shiro"), "-p", "--ephemeral", "x"], { cwd: tempDir("npm-cwd"), stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env, OPENAI_API_KEY: TEST_API_KEY } });
    const children = () => readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, "utf8").trim();
    await waitUntil(() => children() !== "", "the launcher started shiro", 20_000);
    const shiro = children();
    proc.kill("SIGTERM");
    await waitUntil(() => proc.exitCode !== null || proc.signalCode !== null, "the launcher ended", 20_000);
    expect(proc.signalCode).toBe("SIGTERM");
    await waitUntil(() => !existsSync(`/proc/${shiro}`) || readFileSync(`/proc/${shiro}/stat`, "utf8").split(") ")[1]!.startsWith("Z"), "shiro ended", 20_000);
  }, 120_000);

  test("controls: without its platform's package, or on a platform none is made for, one line saying so", async () => {
    const prefix = await installGlobally();
    // As a node_modules copied from another platform has it (npm -g installs optional dependencies even with --omit=optional).
    rmSync(join(prefix, "lib/node_modules/shiro-neko/node_modules/@shiro-neko", PLATFORM), { recursive: true });
    const missing = await run([join(prefix, "bin/shiro"), "--version"]);
    expect(missing).toEqual({
      code: 1,
      stdout: "",
      stderr: `shiro: @shiro-neko/${PLATFORM}, the package holding the binary for this platform, is not installed (left out as optional, or node_modules copied from another platform?): npm install -g shiro-neko\n`,
    });
    // Node told it runs on FreeBSD, before the launcher loads.
    const freebsd = join(tempDir("npm-freebsd"), "freebsd.cjs");
    writeFileSync(freebsd, `Object.defineProperty(process, "platform", { value: "freebsd" });\n`);
    const other = await run(["node", "--require", freebsd, join(prefix, "lib/node_modules/shiro-neko/bin/shiro.js"), "--version"]);
    expect(other).toEqual({
      code: 1,
      stdout: "",
      stderr: `shiro: no shiro binary for freebsd-${process.arch}: the npm package has one for ${Object.keys(NPM_PLATFORMS).join(", ")}\n`,
    });
  }, 120_000);
});

test("the npm-publish step publishes every platform's tarball, then shiro-neko last, with NPM_TOKEN; a pre-release under the tag next", async () => {
  const stub = tempDir("npm-stub");
  const log = join(stub, "calls");
  writeFileSync(join(stub, "npm"), `#!/bin/sh\necho "$NODE_AUTH_TOKEN $*" >> "${log}"\n`, { mode: 0o755 });
  const platforms = Object.keys(NPM_PLATFORMS).map((p) => `dist/npm/shiro-neko-${p}.tgz`).sort();
  for (const [tag, flags] of [[TAG, "--access public"], [`${TAG}-rc.1`, "--access public --tag next"]] as const) {
    writeFileSync(log, "");
    const r = await runReleaseStep("npm-publish", { cwd: checkout, tag, env: { PATH: `${stub}:${process.env.PATH}` }, secrets: { NPM_TOKEN: "npm-token-from-secrets" } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls.slice(0, -1).sort()).toEqual(platforms.map((t) => `npm-token-from-secrets publish ${t} ${flags}`));
    expect(calls.at(-1)).toBe(`npm-token-from-secrets publish dist/npm/shiro-neko.tgz ${flags}`);
  }
  // The token reaches npm through the .npmrc setup-node writes for the registry; packing comes before any publishing.
  const steps: any[] = releaseWorkflow.jobs.release.steps;
  const setupNode = steps.findIndex((s) => String(s.uses).startsWith("actions/setup-node@"));
  expect(steps[setupNode].with["registry-url"]).toBe("https://registry.npmjs.org");
  expect(setupNode).toBeLessThan(steps.indexOf(releaseStep("npm-publish")));
  expect(steps.indexOf(releaseStep("pack"))).toBeLessThan(steps.indexOf(releaseStep("publish")));
});
