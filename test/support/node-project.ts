/**
 * An ordinary Node project for the honest-work tests: a local dependency (`file:vendor/dep`, so
 * `npm ci` runs offline), a build script that makes `dist/`, a lockfile, and a `.gitignore` as a real
 * project has one. Added to `root` (a git repository already, or not) and committed when it is one.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "./guard-projects.ts";

export const BUILD_OUTPUT = "42";

export function addNodeProject(root: string): void {
  mkdirSync(join(root, "vendor/dep"), { recursive: true });
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "vendor/dep/package.json"), `${JSON.stringify({ name: "dep", version: "1.0.0", main: "index.js" }, null, 2)}\n`);
  writeFileSync(join(root, "vendor/dep/index.js"), `module.exports = ${BUILD_OUTPUT};\n`);
  writeFileSync(join(root, "src/index.js"), "module.exports = String(require('dep'));\n");
  const build = "mkdir -p dist && node -e \"require('fs').writeFileSync('dist/out.js', require('./src/index.js'))\"";
  writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "proj", version: "1.0.0", private: true, dependencies: { dep: "file:vendor/dep" }, scripts: { build } }, null, 2)}\n`);
  const lock = Bun.spawnSync(["npm", "install", "--package-lock-only", "--offline", "--no-audit", "--no-fund"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  if (lock.exitCode !== 0) throw new Error(`npm could not write the lockfile: ${lock.stderr.toString()}`);
  const ignored = existsSync(join(root, ".gitignore")) ? readFileSync(join(root, ".gitignore"), "utf8") : "";
  writeFileSync(join(root, ".gitignore"), `${ignored}node_modules/\ndist/\n`);
  if (existsSync(join(root, ".git"))) {
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "a node project");
  }
}
