import { describe, expect, test } from "bun:test";
import { parsePatch, patchPaths, PatchParseError } from "../../../../src/tools/files/parse-patch.ts";
import { applyChunks } from "../../../../src/tools/files/apply-chunks.ts";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const parseError = (text: string) => {
  try {
    parsePatch(text);
  } catch (err) {
    if (err instanceof PatchParseError) return err.message;
    throw err;
  }
  throw new Error("parsed");
};

describe("parsePatch", () => {
  test("add, delete, update with move, @@ context and End of File", () => {
    const ops = parsePatch(
      patch(
        "*** Add File: docs/new.md",
        "+# Title",
        "+",
        "*** Delete File: old.txt",
        "*** Update File: src/a.ts",
        "*** Move to: src/b.ts",
        "@@ function main() {",
        " keep",
        "-old",
        "+new",
        "",
        "@@",
        "-last",
        "+final",
        "*** End of File",
      ),
    );
    expect(ops).toEqual([
      { type: "add", path: "docs/new.md", content: "# Title\n\n" },
      { type: "delete", path: "old.txt" },
      {
        type: "update",
        path: "src/a.ts",
        moveTo: "src/b.ts",
        chunks: [
          { context: "function main() {", oldLines: ["keep", "old", ""], newLines: ["keep", "new", ""], endOfFile: false },
          { oldLines: ["last"], newLines: ["final"], endOfFile: true },
        ],
      },
    ]);
  });

  test("first chunk may omit @@; heredoc wrapping and CRLF are accepted", () => {
    const text = ["apply_patch <<'EOF'", patch("*** Update File: a", "-x", "+y"), "EOF"].join("\r\n");
    expect(parsePatch(text)).toEqual([{ type: "update", path: "a", chunks: [{ oldLines: ["x"], newLines: ["y"], endOfFile: false }] }]);
  });

  test("errors name the line", () => {
    expect(parseError("*** Update File: a\n-x\n+y\n*** End Patch")).toBe('Line 1 of the patch: the patch must start with "*** Begin Patch".');
    expect(parseError("*** Begin Patch\n*** Update File: a\n-x")).toBe('Line 3 of the patch: the patch must end with "*** End Patch".');
    expect(parseError(patch("*** Frobnicate File: a"))).toBe(
      'Line 2 of the patch: expected "*** Add File: <path>", "*** Update File: <path>" or "*** Delete File: <path>", found "*** Frobnicate File: a".',
    );
    expect(parseError(patch("*** Update File: a"))).toBe("Line 3 of the patch: the Update File section for a has no changes.");
    expect(parseError(patch("*** Update File: a", "@@", "-x", "garbage"))).toBe('Line 5 of the patch: expected "@@" to start the next change, found "garbage".');
    expect(parseError(patch("*** Update File: a", "@@ ctx", "garbage"))).toBe('Line 4 of the patch: expected a line starting with " ", "-" or "+", found "garbage".');
  });

  test("patchPaths lists every path, Move to targets too, even when the patch is invalid", () => {
    const text = patch("*** Update File: a.ts", "*** Move to: ../outside.ts", "-x", "+y", "*** Delete File: /etc/passwd", "*** Add File: n.md", "+*** Update File: not-a-header");
    expect(patchPaths(text)).toEqual(["a.ts", "../outside.ts", "/etc/passwd", "n.md"]);
    expect(patchPaths("*** Update File: only.ts\n-x")).toEqual(["only.ts"]);
  });
});

describe("applyChunks", () => {
  const chunk = (oldLines: string[], newLines: string[], extra: object = {}) => ({ oldLines, newLines, endOfFile: false, ...extra });

  test("applies chunks in order after their context line", () => {
    const content = "fn a\n  x = 1\nfn b\n  x = 1\n";
    const result = applyChunks(content, [chunk(["  x = 1"], ["  x = 2"], { context: "fn b" })]);
    expect(result).toEqual({ ok: true, content: "fn a\n  x = 1\nfn b\n  x = 2\n" });
  });

  test("tolerates trailing/surrounding whitespace differences; End of File anchors at the end", () => {
    expect(applyChunks("a  \nb\n", [chunk(["a", "b"], ["c"])])).toEqual({ ok: true, content: "c\n" });
    expect(applyChunks("x\ny\nx\n", [chunk(["x"], ["z"], { endOfFile: true })])).toEqual({ ok: true, content: "x\ny\nz\n" });
    expect(applyChunks("a\n", [chunk([], ["b"])])).toEqual({ ok: true, content: "a\nb\n" });
  });

  test("keeps CRLF line endings", () => {
    expect(applyChunks("a\r\nb\r\n", [chunk(["b"], ["c", "d"])])).toEqual({ ok: true, content: "a\r\nc\r\nd\r\n" });
  });

  test("reports the 1-based chunk that did not match", () => {
    const result = applyChunks("a\nb\n", [chunk(["a"], ["A"]), chunk(["zzz"], ["q"])]);
    expect(result).toEqual({ ok: false, chunk: 2, message: "these lines were not found after line 1:\nzzz" });
    expect(applyChunks("a\n", [chunk(["a"], ["b"], { context: "nope" })])).toEqual({ ok: false, chunk: 1, message: 'the context line "nope" after @@ was not found' });
  });
});
