/**
 * Issue 12: grep at any size. A 100,001-file tree (one more than the old walk's silent limit) with the
 * only match in the last file any sorted walk reaches: found with ripgrep and without it (a run whose
 * system folders, the only place grep takes rg from, hold none).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import { wideTree } from "../../support/wide-tree.ts";
import { findTrusted } from "../../../src/process/trusted-program.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasRg = toolHere("rg", findTrusted("rg").ok);

let root: string;
beforeAll(() => {
  root = tempDir("wide");
  expect(wideTree(root, 100_000, { linked: true })).toBe(100_001);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const steps = [
  { name: "grep", arguments: { pattern: "needle" } },
  { name: "grep", arguments: { pattern: "needle", glob: "*.txt" } },
  { name: "glob", arguments: { pattern: "zzz/*.txt" } },
];

describe("a needle in the 100,001st file", () => {
  test.skipIf(!hasRg)("is found by grep with ripgrep", async () => {
    const job = await scriptedJob(steps, { cwd: root });
    expect(outputOf(job, "grep", (a) => !a.glob)).toBe("zzz/needle.txt:2: the needle is here");
    expect(outputOf(job, "grep", (a) => a.glob === "*.txt")).toBe("zzz/needle.txt:2: the needle is here");
    expect(outputOf(job, "glob", () => true)).toBe("zzz/needle.txt");
    expect(job.stderr).not.toContain("ripgrep");
  });

  test("is found by grep without ripgrep, which says once that it searched the slow way", async () => {
    const job = await scriptedJob(steps, { cwd: root, env: { SHIRO_SYSTEM_DIRS: "/nonexistent-no-rg" } });
    expect(outputOf(job, "grep", (a) => !a.glob)).toBe("zzz/needle.txt:2: the needle is here");
    expect(outputOf(job, "grep", (a) => a.glob === "*.txt")).toBe("zzz/needle.txt:2: the needle is here");
    expect(outputOf(job, "glob", () => true)).toBe("zzz/needle.txt");
    expect(job.stderr.match(/grep: rg is not (installed|in a system folder).*; searching with the built-in scan/g)).toHaveLength(1);
  });
});
