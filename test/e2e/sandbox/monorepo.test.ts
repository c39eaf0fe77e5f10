/**
 * shiro started in a package of a monorepo: commands see the whole repository (its hoisted node_modules),
 * read-only above the package and with its secrets masked; beyond the repository nothing. A home that
 * is itself a git repository (dotfiles) stays hidden.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const hasBwrap = toolHere("bwrap", existsSync("/usr/bin/bwrap"));
const put = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
// Names built when the command runs, so the guard cannot see them and the sandbox is what answers.
const env = (dir: string) => `"${dir}/$(printf '.e%s' nv)"`;

test.skipIf(!hasBwrap)("a package of a monorepo: the repository's shared files read, its .env and everything beyond it not, nothing above the package written", async () => {
  const home = tempDir("mono-home");
  const mono = join(home, "code/mono");
  const app = join(mono, "packages/app");
  put(join(mono, "node_modules/dep/index.js"), "module.exports = 'hoisted dep';\n");
  put(join(mono, ".env"), "MONO_SECRET=mono-secret-7c1a0e\n");
  put(join(home, "code/other/.env"), "OTHER_SECRET=other-secret-0b9d\n");
  put(join(app, "index.js"), "require('dep')\n");
  Bun.spawnSync(["git", "init", "-q", mono]);
  const calls = [bash(`cat ../../node_modules/dep/index.js; cat ${env("../..")} ${env("../../../other")}; echo x > ../../planted.txt; echo "listing=$(ls ../../.. | tr '\\n' ,)"`)];
  const job = await scriptedJob(calls, { cwd: app, home, args: ["--yolo"] });
  const out = job.outputs[0]!.output;
  expect(out).toContain("hoisted dep");
  expect(job.requests.some((r) => r.raw.includes("mono-secret-7c1a0e") || r.raw.includes("other-secret-0b9d"))).toBe(false);
  expect(existsSync(join(mono, "planted.txt"))).toBe(false);
  expect(out).toContain("listing=mono,\n"); // ~/code shows the repository alone, not its sibling
});

test.skipIf(!hasBwrap)("a home that is a git repository (dotfiles) is no monorepo: the project below it sees nothing of the home", async () => {
  const home = tempDir("dotfiles-home");
  put(join(home, ".bashrc"), "export GH_TOKEN=dotfiles-token-5e2f\n");
  Bun.spawnSync(["git", "init", "-q", home]);
  const root = join(home, "code/proj");
  put(join(root, "README"), "hello\n");
  const job = await scriptedJob([bash("cat README; cat ~/.bashrc ../../.bashrc")], { cwd: root, home, args: ["--yolo"] });
  expect(job.outputs[0]!.output).toContain("hello");
  expect(job.requests.some((r) => r.raw.includes("dotfiles-token-5e2f"))).toBe(false);
});
