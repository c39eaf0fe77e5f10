/**
 * The contract both implementations of the `*at` calls keep (at-calls.ts): libc through bun:ffi, and
 * by name for Windows, run here on the same real files so the walk can rely on the same answers.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { AtCalls, Dir } from "../../../../src/tools/files/at-calls.ts";
import { libcAt } from "../../../../src/tools/files/libc-at.ts";
import { namedAt } from "../../../../src/tools/files/named-at.ts";
import { tempDir } from "../../../support/run-shiro.ts";

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));
const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
  return undefined;
};

for (const [label, at] of [["libc", libcAt()], ["by name", namedAt]] as [string, AtCalls][]) {
  /** Runs `check` on a temp folder, opened as the walk opens the project root. */
  const inFolder = (check: (root: Dir) => void) => {
    const root = at.openRoot(base);
    try {
      check(root);
    } finally {
      at.close(root);
    }
  };
  describe(`${label}`, () => {
    test("folders open, links and files do not; readLink tells them apart", () => {
      base = tempDir("at");
      mkdirSync(join(base, "d"));
      writeFileSync(join(base, "f"), "file\n");
      symlinkSync("d", join(base, "l"));
      inFolder((root) => {
        at.close(at.openDir(root, "d"));
        expect(["ENOTDIR", "ELOOP"]).toContain(code(() => at.openDir(root, "l")) ?? "opened");
        expect(code(() => at.openDir(root, "f"))).toBe("ENOTDIR");
        expect(code(() => at.openDir(root, "none"))).toBe("ENOENT");
        expect(at.readLink(root, "l")).toBe("d");
        expect(at.readLink(root, "f")).toBeUndefined();
        expect(code(() => at.readLink(root, "none"))).toBe("ENOENT");
        expect(code(() => at.openRead(root, "l"))).toBe("ELOOP");
        const fd = at.openRead(root, "f");
        expect(readFileSync(fd, "utf8")).toBe("file\n");
        closeSync(fd);
      });
    });

    test("create is exclusive and never through a link; rename replaces a link instead of following it", () => {
      base = tempDir("at");
      mkdirSync(join(base, "elsewhere"));
      writeFileSync(join(base, "elsewhere/target"), "kept\n");
      symlinkSync("elsewhere/target", join(base, "link"));
      inFolder((root) => {
        expect(code(() => at.create(root, "link", 0o600))).toBe("EEXIST");
        const fd = at.create(root, "new", 0o600);
        writeSync(fd, "new\n");
        closeSync(fd);
        expect(code(() => at.create(root, "new", 0o600))).toBe("EEXIST");
        at.rename(root, "new", "link");
        expect(readFileSync(join(base, "link"), "utf8")).toBe("new\n");
        expect(readFileSync(join(base, "elsewhere/target"), "utf8")).toBe("kept\n");
        at.makeDir(root, "made");
        expect(code(() => at.makeDir(root, "made"))).toBe("EEXIST");
        at.unlink(root, "link");
        expect(code(() => readlinkSync(join(base, "link")))).toBe("ENOENT");
      });
    });
  });
}
