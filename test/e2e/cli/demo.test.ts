import { expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { tempDir } from "../../support/run-shiro.ts";

test("bun run demo finishes the job offline and leaves no temporary folder behind", async () => {
  // The demo's own temp folders go under this one (TMPDIR), so what it leaves is all that is here.
  const tmp = tempDir("demo-tmp");
  try {
    const proc = Bun.spawn(["bun", "demo/run.ts"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, TMPDIR: tmp, NO_COLOR: "1" } });
    const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect([code, stderr]).toEqual([0, expect.stringContaining("✓ Created notes/summary.md")]);
    expect(stdout).toContain("$ cat notes/summary.md\n# Notes summary");
    expect(stdout).toContain("shiro exited 0 after 4 model calls.");
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
