import { expect, test } from "bun:test";
import { runShiro, tempDir } from "../support/run-shiro.ts";

test("--help fits an 80-column terminal and names every inspect flag, the sandbox's flags and the compaction default", async () => {
  const help = await runShiro(["--help"], { cwd: tempDir("help") });
  expect(help.code).toBe(0);
  for (const line of help.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  expect(help.stdout).toContain("shiro inspect <session> [step] [--full] [--json]");
  expect(help.stdout).toContain("(default 120000,");
  // The sandbox's flags, --network and --add-dir among them, are named.
  for (const flag of ["--network ", "--no-network ", "--add-dir <dir>", "--sandbox <mode>", "--yolo "]) expect(help.stdout).toContain(flag);
});
