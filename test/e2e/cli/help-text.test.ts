import { expect, test } from "bun:test";
import { runShiro, tempDir } from "../../support/run-shiro.ts";

test("--help fits an 80-column terminal and names every inspect flag, export and import, the sandbox's flags, plan mode's and the compaction default", async () => {
  const help = await runShiro(["--help"], { cwd: tempDir("help") });
  expect(help.code).toBe(0);
  for (const line of help.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  expect(help.stdout).toContain("shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json]");
  expect(help.stdout).toContain("shiro export <session> [--format md|json|html] [-o <file>]");
  expect(help.stdout).toContain("shiro import <file>");
  expect(help.stdout).toContain("(default 120000,");
  // The sandbox's flags, --network and --add-dir among them, are named.
  for (const flag of ["--network ", "--no-network ", "--add-dir <dir>", "--sandbox <mode>", "--yolo ", "--plan ", "--no-plan "]) expect(help.stdout).toContain(flag);
});

test("--help lists every exit code shiro ends with, the signals' among them", async () => {
  const help = await runShiro(["--help"], { cwd: tempDir("help") });
  const codes = help.stdout.slice(help.stdout.indexOf("Exit codes")).split("\n\n")[0]!;
  for (const [code, why] of [["0", "finished"], ["1", "model or API failure"], ["2", "usage"], ["3", "--max-steps"], ["4", "denied"], ["129", "SIGHUP"], ["130", "Ctrl-C"], ["143", "SIGTERM"]])
    expect(codes).toMatch(new RegExp(`(^|\\s)${code} [^·]*${why}`));
});
