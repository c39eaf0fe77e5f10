import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNestedLoader } from "../../../src/context/nested-loader.ts";
import type { InstructionFile } from "../../../src/session/reduce-session.ts";
import { foldersBelow } from "../../../src/context/folders-below.ts";
import { capNested, nestedSection, NESTED_FILE_CAP, NESTED_TOTAL_CAP } from "../../../src/context/nested-section.ts";

const root = "/repo";

test("the folders between the root and a path are each new once, outer first, the path itself included", () => {
  const seen = new Set<string>();
  expect(foldersBelow(root, "packages/api/src/x.ts", seen)).toEqual(["/repo/packages", "/repo/packages/api", "/repo/packages/api/src", "/repo/packages/api/src/x.ts"]);
  // A second read there, or in a folder already on that way: nothing new.
  expect(foldersBelow(root, "packages/api/src/x.ts", seen)).toEqual([]);
  expect(foldersBelow(root, "/repo/packages/api", seen)).toEqual([]);
  // A sibling: only what is new of its chain.
  expect(foldersBelow(root, "./packages/web/w.ts", seen)).toEqual(["/repo/packages/web", "/repo/packages/web/w.ts"]);
  expect(seen.size).toBe(6);
});

test("the root itself, and anything not below it, is no subfolder", () => {
  const seen = new Set<string>();
  for (const path of [".", "", "/repo", "..", "../other/AGENTS.md", "/etc/passwd", "/repo-two/x"]) expect(foldersBelow(root, path, seen)).toEqual([]);
  expect(seen.size).toBe(0);
  expect(foldersBelow(root, "..hidden/x", seen)).toEqual(["/repo/..hidden", "/repo/..hidden/x"]);
});

test("a file within the caps joins whole; past its cap, or past what the total has left, it is cut; nothing once the total is spent", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  expect(capNested(bytes("  rule one\n"), 11, 0)).toEqual({ text: "rule one", cut: false });
  const long = "é".repeat(NESTED_FILE_CAP); // two bytes each
  const big = capNested(bytes(long).subarray(0, NESTED_FILE_CAP), long.length * 2, 0);
  expect(big.cut).toBe(true);
  expect(Buffer.byteLength(big.text)).toBe(NESTED_FILE_CAP);
  const odd = capNested(bytes(`x${long}`).subarray(0, NESTED_FILE_CAP), long.length * 2 + 1, 0);
  expect(odd.text).not.toContain("\uFFFD"); // the character cut in two is left out
  expect(Buffer.byteLength(odd.text)).toBe(NESTED_FILE_CAP - 1);
  expect(capNested(bytes("abcdef"), 6, NESTED_TOTAL_CAP - 3)).toEqual({ text: "abc", cut: true });
  expect(capNested(bytes("abcdef"), 6, NESTED_TOTAL_CAP)).toEqual({ text: "", cut: true });
});

test("the section names each file by its path, and says which were cut and by how much", () => {
  expect(nestedSection([])).toBe("");
  const section = nestedSection([
    { path: "packages/api/AGENTS.md", text: "use zod", bytes: 8 },
    { path: "packages/huge/AGENTS.md", text: "x".repeat(NESTED_FILE_CAP), bytes: 40 * 1024, cut: true },
  ]);
  expect(section).toStartWith("# Instructions from AGENTS.md files in subfolders\n\n");
  expect(section).toContain("## packages/api/AGENTS.md\n\nuse zod\n\n## packages/huge/AGENTS.md\n\nxxx");
  expect(section).toEndWith("\n\n[packages/huge/AGENTS.md cut: 16 KiB of its 40 KiB kept (a subfolder's instructions are capped at 16 KiB a file, 64 KiB in all)]");
});

test("the loader joins a folder's file once; not one a link leads out of the project to, nor a FIFO (which must not hang it)", () => {
  const base = mkdtempSync(join(tmpdir(), "shiro-nested-loader-"));
  try {
    const root = join(base, "project");
    for (const dir of ["packages/ok/src", "packages/fifo", "outside"]) mkdirSync(join(dir === "outside" ? base : root, dir), { recursive: true });
    writeFileSync(join(root, "packages/ok/AGENTS.md"), "ok rules\n");
    writeFileSync(join(base, "outside/AGENTS.md"), "outside rules\n");
    symlinkSync(join(base, "outside"), join(root, "packages/linked"));
    Bun.spawnSync(["mkfifo", join(root, "packages/fifo/AGENTS.md")]);
    const loaded: InstructionFile[] = [];
    const warnings: string[] = [];
    const touched = createNestedLoader({ root, loaded: () => loaded, record: (f) => loaded.push(f), warn: (l) => warnings.push(l) });
    touched(["packages/ok/src/a.ts", "packages/linked/x.ts", "packages/fifo/y.ts"]);
    touched(["packages/ok/src/b.ts", "packages/ok"]);
    expect(loaded).toEqual([{ path: "packages/ok/AGENTS.md", text: "ok rules", bytes: 9 }]);
    expect(warnings).toEqual(["AGENTS.md skipped: cannot read packages/fifo/AGENTS.md (not a regular file)"]);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
