import { expect, test } from "bun:test";
import { isPlainGit } from "../../../src/sandbox/plain-git.ts";

test("plain git (and cd) may write .git: commit, branch, fetch, in any folder", () => {
  for (const command of ["git commit -m 'x y'", "git add -A && git commit -m wip", "cd sub && git status", "git -C sub log", "git checkout -b feature"])
    expect([command, isPlainGit(command, "/p", "/h")]).toEqual([command, true]);
});

test("anything else may not: other programs, redirections, substitutions, prefixes, wrappers, options that run code", () => {
  for (const command of [
    "rm -rf .. && git init",
    "git -c core.pager='rm -rf ..' log",
    "git -c alias.x='!rm -rf ..' x",
    "GIT_PAGER=rm git log",
    "git log > out",
    "git $(echo log)",
    "sudo git commit",
    "/usr/bin/git commit",
    "git --git-dir=../x log",
    "git log | cat",
    "echo hi",
    "",
  ])
    expect([command, isPlainGit(command, "/p", "/h")]).toEqual([command, false]);
});
