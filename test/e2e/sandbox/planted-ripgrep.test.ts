/**
 * grep runs rg outside any sandbox, so it takes rg from the system folders alone: an executable `rg`
 * in the project's `node_modules/.bin`, first on PATH (as an npm script or direnv would put it), never
 * runs, and grep still finds what the project holds.
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";

test("an rg planted first on PATH never runs; grep still finds the match", async () => {
  const root = tempDir("planted-rg");
  const bin = join(root, "node_modules/.bin");
  const canary = join(tempDir("planted-rg-canary"), "ran");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "rg"), `#!/bin/sh\necho planted > ${canary}\nexit 0\n`);
  chmodSync(join(bin, "rg"), 0o755);
  writeFileSync(join(root, "app.ts"), "export const needle = 1;\n");
  const job = await scriptedJob([{ name: "grep", arguments: { pattern: "needle" } }], { cwd: root, env: { PATH: `${bin}:${process.env.PATH}` } });
  expect(existsSync(canary)).toBe(false);
  expect(outputOf(job, "grep", () => true)).toBe("app.ts:1: export const needle = 1;");
});
