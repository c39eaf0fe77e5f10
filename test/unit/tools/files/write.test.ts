import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFile } from "../../../../src/tools/files/write-file.ts";
import { editFile } from "../../../../src/tools/files/edit-file.ts";
import { renderDiff } from "../../../../src/ui/diff-view.ts";
import { call, tempProject, toolError } from "../../../support/temp-project.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());
const read = (p: string) => readFileSync(join(project.root, p), "utf8");

describe("write_file", () => {
  test("creates parent folders and reports the line count with a diff", async () => {
    project = tempProject();
    const out = await call(writeFile, { path: "notes/x.md", content: "a\nb\n" }, project.ctx());
    expect(out.output).toBe("Created notes/x.md (2 lines)");
    expect(read("notes/x.md")).toBe("a\nb\n");
    expect(out.display).toBe("--- /dev/null\n+++ notes/x.md\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    expect(readdirSync(join(project.root, "notes"))).toEqual(["x.md"]); // no temp file left behind
  });

  test("updates keep the file mode and count added/removed lines; same content is no change", async () => {
    project = tempProject({ "run.sh": "echo 1\necho 2\n" });
    chmodSync(join(project.root, "run.sh"), 0o755);
    const out = await call(writeFile, { path: "run.sh", content: "echo 1\necho 3\necho 4\n" }, project.ctx());
    expect(out.output).toBe("Updated run.sh: +2 −1 lines");
    expect(statSync(join(project.root, "run.sh")).mode & 0o777).toBe(0o755);
    expect((await call(writeFile, { path: "run.sh", content: "echo 1\necho 3\necho 4\n" }, project.ctx())).output).toBe("No change to run.sh");
  });

  test("preview shows the diff without writing", async () => {
    project = tempProject({ "a.txt": "old\n" });
    const diff = await writeFile.preview!({ path: "a.txt", content: "new\n" }, project.ctx());
    expect(diff).toBe("--- a.txt\n+++ a.txt\n@@ -1,1 +1,1 @@\n-old\n+new\n");
    expect(read("a.txt")).toBe("old\n");
  });

  test("refuses to overwrite a folder", async () => {
    project = tempProject({ "d/x": "" });
    expect(await toolError(writeFile, { path: "d", content: "x" }, project.ctx())).toBe("d is a directory, not a file. Use list_dir to see what it contains.");
  });
});

describe("edit_file", () => {
  test("replaces a unique occurrence, literally (no $& substitution)", async () => {
    project = tempProject({ "a.ts": "const a = 1;\nconst b = 2;\n" });
    const out = await call(editFile, { path: "a.ts", old_string: "const b = 2;", new_string: "const b = '$&';" }, project.ctx());
    expect(out.output).toBe("Edited a.ts: +1 −1 lines");
    expect(read("a.ts")).toBe("const a = 1;\nconst b = '$&';\n");
    expect(out.display).toContain("-const b = 2;\n+const b = '$&';");
  });

  test("an ambiguous edit names the count and lines and writes nothing", async () => {
    project = tempProject({ "a.ts": "x();\ny();\nx();\nx();\n" });
    expect(await toolError(editFile, { path: "a.ts", old_string: "x();", new_string: "z();" }, project.ctx())).toBe(
      "old_string occurs 3 times in a.ts (lines 1, 3, 4). Include more surrounding lines to make it unique, or set replace_all: true to change every occurrence.",
    );
    expect(read("a.ts")).toBe("x();\ny();\nx();\nx();\n");
    const out = await call(editFile, { path: "a.ts", old_string: "x();", new_string: "z();", replace_all: true }, project.ctx());
    expect(out.output).toBe("Edited a.ts (3 occurrences): +3 −3 lines");
    expect(read("a.ts")).toBe("z();\ny();\nz();\nz();\n");
  });

  test("zero matches points at the near-match line", async () => {
    project = tempProject({ "a.py": "def main():\n    print('hello world')\n    return 0\n" });
    expect(await toolError(editFile, { path: "a.py", old_string: "print('hello wrld')", new_string: "x" }, project.ctx())).toBe(
      `old_string was not found in a.py. The closest line is 2: "    print('hello world')". Read the file again and copy the exact text.`,
    );
    expect(await toolError(editFile, { path: "a.py", old_string: "def main():\n  print('hello world')", new_string: "x" }, project.ctx())).toBe(
      `old_string was not found in a.py. The text at line 1 differs only in whitespace: "def main():". Copy its exact indentation.`,
    );
    expect(await toolError(editFile, { path: "a.py", old_string: "zzzzqqqq", new_string: "x" }, project.ctx())).toBe(
      "old_string was not found in a.py. Read the file again and copy the exact text, including indentation.",
    );
  });

  test("missing file, empty and identical strings", async () => {
    project = tempProject({ "a.txt": "x\n" });
    expect(await toolError(editFile, { path: "b.txt", old_string: "x", new_string: "y" }, project.ctx())).toBe("File not found: b.txt. Did you mean: a.txt?");
    expect(await toolError(editFile, { path: "a.txt", old_string: "", new_string: "y" }, project.ctx())).toBe("old_string is empty. To create or overwrite a.txt, use write_file.");
    expect(await toolError(editFile, { path: "a.txt", old_string: "x", new_string: "x" }, project.ctx())).toBe("old_string and new_string are identical; there is nothing to change.");
  });

  test("preview is the diff, file untouched; a failing edit has no preview", async () => {
    project = tempProject({ "a.txt": "one\ntwo\n" });
    expect(await editFile.preview!({ path: "a.txt", old_string: "two", new_string: "2" }, project.ctx())).toBe("--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n");
    expect(await editFile.preview!({ path: "a.txt", old_string: "nine", new_string: "9" }, project.ctx())).toBeUndefined();
    expect(read("a.txt")).toBe("one\ntwo\n");
  });
});

describe("renderDiff", () => {
  const diff = "--- a\n+++ a\n@@ -1 +1 @@\n-old\n+new\n same";
  test("colours added green, removed red, hunks cyan; plain when colour is off", () => {
    expect(renderDiff(diff, false)).toBe(diff);
    const coloured = renderDiff(diff, true);
    expect(coloured).toContain("\x1b[32m+new\x1b[39m");
    expect(coloured).toContain("\x1b[31m-old\x1b[39m");
    expect(coloured).toContain("\x1b[36m@@ -1 +1 @@\x1b[39m");
    expect(coloured).toEndWith("\n same");
  });
});

describe("CRLF files", () => {
  test("edit_file matches \\n text in a CRLF file and keeps CRLF", async () => {
    project = tempProject({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
    await call(editFile, { path: "w.txt", old_string: "one\ntwo", new_string: "1\n2" }, project.ctx());
    expect(read("w.txt")).toBe("1\r\n2\r\nthree\r\n");
  });
});
