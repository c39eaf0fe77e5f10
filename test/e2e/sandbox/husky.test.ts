/**
 * A project whose git config names a hooks folder (husky: `core.hooksPath = .husky/_`): what is written
 * there runs at the person's next commit, outside the sandbox — so neither a command nor a file tool may
 * write it, even under --yolo; the rest of the project is written as usual.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", existsSync("/usr/bin/bwrap"));

test.skipIf(!hasBwrap)("--yolo: nothing lands in .husky, by command or by write_file; the person's next commit runs only their own hook", async () => {
  const root = tempDir("husky");
  const canary = join(tempDir("husky-canary"), "planted");
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", ...args], { cwd: root, stdout: "pipe", stderr: "pipe" });
  git("init", "-q");
  mkdirSync(join(root, ".husky/_"), { recursive: true });
  writeFileSync(join(root, ".husky/_/pre-commit"), '#!/bin/sh\n[ -f .husky/pre-commit ] && sh .husky/pre-commit\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(root, ".husky/pre-commit"), "echo lint\n");
  git("config", "core.hooksPath", ".husky/_");
  const payload = `touch ${canary}`;
  const job = await scriptedJob(
    [
      // Built at run time, so no rule can read the path in the command's text: the sandbox answers.
      { name: "bash", arguments: { command: `d=$(printf '.hu%s' sky); echo '${payload}' >> "$d/pre-commit"; echo '${payload}' > "$d/_/post-commit"; chmod +x "$d/_/post-commit"; echo ok > src.txt` } },
      { name: "write_file", arguments: { path: ".husky/pre-push", content: `${payload}\n` } },
    ],
    { cwd: root, args: ["--yolo"] },
  );
  expect(readFileSync(join(root, "src.txt"), "utf8")).toBe("ok\n");
  expect(readFileSync(join(root, ".husky/pre-commit"), "utf8")).toBe("echo lint\n");
  expect(existsSync(join(root, ".husky/_/post-commit"))).toBe(false);
  expect(existsSync(join(root, ".husky/pre-push"))).toBe(false);
  // The person commits: their own hook runs, nothing planted does.
  git("add", "src.txt");
  const commit = git("commit", "-qm", "x");
  expect(commit.stdout.toString() + commit.stderr.toString()).toContain("lint"); // git gives a hook's output to stderr
  expect(existsSync(canary)).toBe(false);
  expect(job.code).toBe(4); // the write_file was refused
});
