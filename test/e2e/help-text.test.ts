import { expect, test } from "bun:test";
import { runShiro, tempDir } from "../support/run-shiro.ts";

test("--help fits an 80-column terminal and names every inspect flag and the compaction default", async () => {
  const help = await runShiro(["--help"], { cwd: tempDir("help") });
  expect(help.code).toBe(0);
  for (const line of help.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
  expect(help.stdout).toContain("shiro inspect <session> [step] [--full] [--json]");
  expect(help.stdout).toContain("(default 120000,");
});
