/**
 * shiro itself runs git outside any sandbox (reading the secret files committed at HEAD, the person's
 * git identity): that git comes from the system folders alone. A `git` planted first on PATH never runs,
 * and the committed secret's value is still kept from the model.
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

test("a git planted first on PATH never runs; the value committed in HEAD:.env is still redacted", async () => {
  const root = tempDir("planted-git");
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", ...args], { cwd: root });
  writeFileSync(join(root, ".env"), "OLD_TOKEN=committed-value-4d8e21\n");
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "oops, committed .env");
  writeFileSync(join(root, ".env"), "OLD_TOKEN=rotated\n");
  const bin = join(root, "node_modules/.bin");
  const canary = join(tempDir("planted-git-canary"), "ran");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "git"), `#!/bin/sh\necho planted > ${canary}\nexec /usr/bin/git "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  // The old value reaches the model only by a route the guard cannot name: a blob read by its id.
  const blob = git("rev-parse", "HEAD:.env").stdout.toString().trim();
  const job = await scriptedJob([{ name: "bash", arguments: { command: `/usr/bin/git cat-file blob ${blob}` } }], { cwd: root, env: { PATH: `${bin}:${process.env.PATH}` } });
  expect(existsSync(canary)).toBe(false);
  expect(job.outputs[0]!.output).toContain("OLD_TOKEN=");
  expect(job.requests.some((r) => r.raw.includes("committed-value-4d8e21"))).toBe(false);
});
