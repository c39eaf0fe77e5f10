/** The home is hidden from commands, .gitconfig with it: a commit inside the sandbox still carries the person's name and email. */
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", existsSync("/usr/bin/bwrap"));

const bash = (command: string) => ({ name: "bash", arguments: { command } });

test.skipIf(!hasBwrap)("--yolo: plain git commits with the identity of the person's own ~/.gitconfig, though the file is out of the command's sight", async () => {
  const home = tempDir("identity-home");
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Ann Person\n\temail = ann@example.invalid\n");
  const root = tempDir("identity-proj");
  writeFileSync(join(root, "README"), "hello\n");
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: root, env: { HOME: home, PATH: process.env.PATH }, stdout: "pipe" }).stdout.toString().trim();
  git("init", "-q");
  // Plain git alone may write .git (docs/sandbox.md), so the commit is a call of its own.
  const job = await scriptedJob([bash("cat ~/.gitconfig"), bash("git add -A && git commit -qm first")], { cwd: root, home, args: ["--yolo"] });
  expect(job.outputs[0]!.output).not.toContain("ann@example.invalid"); // the file itself stays hidden
  expect(job.outputs[1]!.output).toContain("Exit code: 0");
  expect(git("log", "--format=%an <%ae> / %cn <%ce>")).toBe("Ann Person <ann@example.invalid> / Ann Person <ann@example.invalid>");
});
