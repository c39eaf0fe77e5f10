/**
 * A project that is a linked git worktree (`git worktree add ../feature`): its `.git` is a file and its
 * repository lies beside it, where the sandbox hides what is next to a project. shiro runs there (it
 * crashed on `.git/config` being no folder), and on both backends a command sees the repository: git
 * status works, plain git commits into it, while a command that is more than git cannot write it and
 * its hooks stay as they were.
 */
import { expect } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eachBackend } from "../../support/attack-layout.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const git = (cwd: string, ...args: string[]) => Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, HOME: join(cwd, "..") }, stdout: "pipe", stderr: "pipe" });

eachBackend("in a linked worktree: git status and a plain commit work; a command that is more than git writes nothing of the repository", async (backend) => {
  const base = tempDir("worktree");
  const main = join(base, "main");
  mkdirSync(main);
  writeFileSync(join(base, ".gitconfig"), "[user]\n\tname = Pat\n\temail = pat@example.com\n");
  git(main, "init", "-q");
  git(main, "commit", "-q", "--allow-empty", "-m", "first");
  git(main, "worktree", "add", "-q", "../feature");
  const feature = join(base, "feature");
  const hooksBefore = readdirSync(join(main, ".git/hooks")).sort();
  const calls = [
    bash("echo x > f.txt"),
    bash("git status --short"),
    bash("git add f.txt && git commit -q -m 'from the worktree'"),
    bash(`printf '#!/bin/sh\\ntouch ${join(base, "canary")}\\n' > ${join(main, ".git/hooks")}/"$(printf 'pre-comm%s' it)"; echo written=$?`),
  ];
  const job = await scriptedJob(calls, { cwd: feature, home: base, args: ["--yolo"], env: backend });
  expect(job.stderr).not.toContain("internal error");
  expect(job.outputs[1]!.output).toStartWith("?? f.txt\n");
  expect(job.outputs[2]!.output).toContain("Exit code: 0");
  expect(git(main, "log", "--format=%s", "feature").stdout.toString()).toStartWith("from the worktree\n");
  expect(readdirSync(join(main, ".git/hooks")).sort()).toEqual(hooksBefore);
  expect(existsSync(join(base, "canary"))).toBe(false);
});
