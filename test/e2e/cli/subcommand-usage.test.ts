import { expect, test } from "bun:test";
import { runShiro, tempDir } from "../../support/run-shiro.ts";

// A mistyped subcommand gets one line saying what was wrong and that subcommand's usage, not node's
// advice about positional arguments.
test("bad flags and arguments to sessions, inspect (flags that do not go together among them) and undo (a negative --to among them): one line each, with the subcommand's usage", async () => {
  const cwd = tempDir("sub");
  const cases: [string[], string][] = [
    [["sessions", "--bogus"], "shiro: Unknown option '--bogus' (usage: shiro sessions [--all] [--json])\n"],
    [["sessions", "extra"], 'shiro: unexpected argument "extra" (usage: shiro sessions [--all] [--json])\n'],
    [["inspect", "--full"], "shiro: inspect needs a session id from shiro sessions (usage: shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json])\n"],
    [["inspect", "--step=2"], "shiro: Unknown option '--step' (usage: shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json])\n"],
    [["inspect", "0123", "two"], 'shiro: a call is a number from shiro inspect <session> --turns, got "two"\n'],
    [["inspect", "0123", "2", "--turns"], "shiro: --turns lists every call; give it or a call, not both (usage: shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json])\n"],
    [["inspect", "0123", "--diff"], "shiro: --diff compares one call with the one before: shiro inspect <session> <call> --diff (usage: shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json])\n"],
    [["inspect", "0123", "--full"], "shiro: --full shows one call's body whole: shiro inspect <session> <call> --full (usage: shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json])\n"],
    [["undo", "--to", "-1"], 'shiro: --to takes a turn number from shiro undo --list, got "-1"\n'],
    [["export", "0123", "--json"], "shiro: Unknown option '--json' (usage: shiro export <session> [--format md|json|html] [-o <file>])\n"],
    [["export", "0123", "two"], 'shiro: unexpected argument "two" (usage: shiro export <session> [--format md|json|html] [-o <file>])\n'],
    [["import"], "shiro: import needs the file shiro export --format json wrote (usage: shiro import <file>)\n"],
    [["import", "a.json", "b.json"], 'shiro: unexpected argument "b.json" (usage: shiro import <file>)\n'],
  ];
  for (const [args, stderr] of cases) expect(await runShiro(args, { cwd })).toEqual({ code: 2, stdout: "", stderr });
});

test("every subcommand answers --help (and -h): its usage and options on stdout, exit 0, nothing else done", async () => {
  const cwd = tempDir("sub-help");
  for (const name of ["sessions", "inspect", "export", "import", "registry", "doctor", "undo", "mcp"]) {
    for (const flag of ["--help", "-h"]) {
      const r = await runShiro([name, flag], { cwd });
      expect({ name, flag, code: r.code, stderr: r.stderr }).toEqual({ name, flag, code: 0, stderr: "" });
      expect(r.stdout).toStartWith(`usage: shiro ${name}`);
    }
  }
  // After `--`, --help is an argument, not a question.
  expect((await runShiro(["inspect", "--", "--help"], { cwd })).code).toBe(2);
});
