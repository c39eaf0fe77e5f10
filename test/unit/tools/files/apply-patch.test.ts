import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { applyPatch } from "../../../../src/tools/files/apply-patch.ts";
import { call, tempProject, toolError } from "../../../support/temp-project.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());
const read = (p: string) => readFileSync(join(project.root, p), "utf8");
const exists = (p: string) => existsSync(join(project.root, p));
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("apply_patch", () => {
  test("adds, updates, moves and deletes, reporting each file with a diff", async () => {
    project = tempProject({ "src/a.ts": "one\ntwo\nthree\n", "old.txt": "bye\n", "run.sh": "echo hi\n" });
    chmodSync(join(project.root, "run.sh"), 0o755);
    const text = patch(
      "*** Add File: docs/new.md",
      "+hello",
      "*** Update File: src/a.ts",
      "@@",
      " one",
      "-two",
      "+2",
      " three",
      "*** Update File: run.sh",
      "*** Move to: bin/run.sh",
      "-echo hi",
      "+echo hello",
      "*** Delete File: old.txt",
    );
    const out = await call(applyPatch, { patch: text }, project.ctx());
    expect(out.output).toBe("Applied patch:\nA docs/new.md (+1 line)\nM src/a.ts (+1 −1 lines)\nR run.sh → bin/run.sh (+1 −1 lines)\nD old.txt");
    expect(read("docs/new.md")).toBe("hello\n");
    expect(read("src/a.ts")).toBe("one\n2\nthree\n");
    expect(read("bin/run.sh")).toBe("echo hello\n");
    expect(statSync(join(project.root, "bin/run.sh")).mode & 0o777).toBe(0o755);
    expect(exists("run.sh")).toBe(false);
    expect(exists("old.txt")).toBe(false);
    expect(out.display).toContain("--- src/a.ts\n+++ src/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n");
    expect(out.display).toContain("--- run.sh\n+++ bin/run.sh\n");
    expect(out.display).toContain("--- old.txt\n+++ /dev/null\n");
  });

  test("one bad hunk writes nothing and names the file and hunk", async () => {
    project = tempProject({ "a.txt": "a1\na2\n", "b.txt": "b1\nb2\n" });
    const text = patch("*** Add File: c.txt", "+c", "*** Update File: a.txt", "-a1", "+A1", "*** Update File: b.txt", "@@", "-b1", "+B1", "@@", "-nope", "+x", "*** Delete File: a.txt");
    expect(await toolError(applyPatch, { patch: text }, project.ctx())).toBe(
      "The patch was not applied; no file was changed.\nUpdate File b.txt: hunk 2 did not match — these lines were not found after line 1:\nnope\nRead the files again and resend the whole patch with corrected hunks.",
    );
    expect(read("a.txt")).toBe("a1\na2\n");
    expect(read("b.txt")).toBe("b1\nb2\n");
    expect(exists("c.txt")).toBe(false);
  });

  test("missing files, existing add targets and move targets are refused", async () => {
    project = tempProject({ "a.txt": "a\n", "b.txt": "b\n" });
    const text = patch("*** Update File: gone.txt", "-x", "+y", "*** Add File: a.txt", "+a", "*** Update File: a.txt", "*** Move to: b.txt", "-a", "+z", "*** Delete File: nothere");
    expect(await toolError(applyPatch, { patch: text }, project.ctx())).toBe(
      [
        "The patch was not applied; no file was changed.",
        "Update File gone.txt: the file does not exist.",
        'Add File a.txt: the file already exists; use "*** Update File:" to change it.',
        "Update File a.txt: cannot move to b.txt, which already exists.",
        "Delete File nothere: the file does not exist.",
        "Read the files again and resend the whole patch with corrected hunks.",
      ].join("\n"),
    );
    expect(read("a.txt")).toBe("a\n");
  });

  test("an unparsable patch says which line", async () => {
    project = tempProject();
    expect(await toolError(applyPatch, { patch: "--- a\n+++ b" }, project.ctx())).toBe('Invalid patch. Line 1 of the patch: the patch must start with "*** Begin Patch". Nothing was changed.');
  });

  test("subject lists every path including Move to; preview is the diff without writing", async () => {
    project = tempProject({ "a.txt": "a\n" });
    const text = patch("*** Update File: a.txt", "*** Move to: moved/a.txt", "-a", "+b", "*** Add File: n.txt", "+n");
    expect(applyPatch.subject({ patch: text })).toEqual({ paths: ["a.txt", "moved/a.txt", "n.txt"] });
    const preview = await applyPatch.preview!({ patch: text }, project.ctx());
    expect(preview).toBe("--- a.txt\n+++ moved/a.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n--- /dev/null\n+++ n.txt\n@@ -0,0 +1,1 @@\n+n\n");
    expect(exists("moved/a.txt")).toBe(false);
    expect(exists("n.txt")).toBe(false);
  });
});
