import { afterEach, describe, expect, test } from "bun:test";
import { isIgnored, parseGitignore } from "../../../src/files/gitignore.ts";
import { loadIgnore, walkFiles } from "../../../src/files/walk-files.ts";
import { tempProject } from "../../support/temp-project.ts";

const rules = (text: string, base = "") => parseGitignore(text, base);

describe("gitignore matcher", () => {
  test("plain names match at any depth; comments and blank lines are skipped", () => {
    const r = rules("# comment\n\nnode_modules\n*.log\n");
    expect(isIgnored(r, "node_modules", true)).toBe(true);
    expect(isIgnored(r, "pkg/node_modules/x.js", false)).toBe(true);
    expect(isIgnored(r, "a/b/debug.log", false)).toBe(true);
    expect(isIgnored(r, "a/b/debug.txt", false)).toBe(false);
    expect(isIgnored(r, "# comment", false)).toBe(false);
  });

  test("a leading or middle slash anchors to the .gitignore's folder", () => {
    const r = rules("/build\ndocs/out\n");
    expect(isIgnored(r, "build", true)).toBe(true);
    expect(isIgnored(r, "src/build", true)).toBe(false);
    expect(isIgnored(r, "docs/out/a.html", false)).toBe(true);
    expect(isIgnored(r, "x/docs/out", true)).toBe(false);
  });

  test("dir-only patterns skip files of that name", () => {
    const r = rules("cache/\n");
    expect(isIgnored(r, "cache", true)).toBe(true);
    expect(isIgnored(r, "cache", false)).toBe(false);
    expect(isIgnored(r, "a/cache/x", false)).toBe(true);
  });

  test("negation re-includes, but not inside an ignored folder", () => {
    const r = rules("*.log\n!keep.log\nout/\n!out/x.txt\n");
    expect(isIgnored(r, "a.log", false)).toBe(true);
    expect(isIgnored(r, "keep.log", false)).toBe(false);
    expect(isIgnored(r, "out/x.txt", false)).toBe(true);
  });

  test("** spans folders; ?, [] and escapes work", () => {
    const r = rules("a/**/z.txt\nlogs/**\nfile?.md\n[Tt]emp\n\\#hash\n");
    expect(isIgnored(r, "a/z.txt", false)).toBe(true);
    expect(isIgnored(r, "a/b/c/z.txt", false)).toBe(true);
    expect(isIgnored(r, "logs/deep/x", false)).toBe(true);
    expect(isIgnored(r, "file1.md", false)).toBe(true);
    expect(isIgnored(r, "file10.md", false)).toBe(false);
    expect(isIgnored(r, "Temp", true)).toBe(true);
    expect(isIgnored(r, "temp", true)).toBe(true);
    expect(isIgnored(r, "#hash", false)).toBe(true);
  });

  test("nested rules only apply below their folder, and .git is always hidden", () => {
    const r = [...rules("*.tmp\n"), ...rules("secret.txt\n!x.tmp\n", "sub")];
    expect(isIgnored(r, "sub/secret.txt", false)).toBe(true);
    expect(isIgnored(r, "secret.txt", false)).toBe(false);
    expect(isIgnored(r, "sub/x.tmp", false)).toBe(false);
    expect(isIgnored(r, "x.tmp", false)).toBe(true);
    expect(isIgnored([], ".git/config", false)).toBe(true);
  });
});

describe("walkFiles / loadIgnore on disk", () => {
  let project: ReturnType<typeof tempProject>;
  afterEach(() => project.cleanup());

  test("skips ignored files and folders from root and nested .gitignore, sorted folders first", async () => {
    project = tempProject({
      ".gitignore": "node_modules/\n*.log\n/dist\n",
      ".git/HEAD": "ref",
      "node_modules/x/index.js": "",
      "dist/out.js": "",
      "src/dist/keep.js": "",
      "src/a.ts": "",
      "src/debug.log": "",
      "src/.gitignore": "gen/\n!important.log\n",
      "src/gen/g.ts": "",
      "src/important.log": "",
      "README.md": "",
    });
    const { paths, truncated } = await walkFiles(project.root, ".");
    expect(paths).toEqual(["src/dist/keep.js", "src/.gitignore", "src/a.ts", "src/important.log", ".gitignore", "README.md"]);
    expect(truncated).toBe(false);
    const ignore = loadIgnore(project.root);
    expect(ignore.ignores("src/gen/g.ts", false)).toBe(true);
    expect(ignore.ignores("src/important.log", false)).toBe(false);
    expect(ignore.ignores("node_modules/x/index.js", false)).toBe(true);
  });

  test("limit, maxDepth and includeDirs", async () => {
    project = tempProject({ "a/b/c.txt": "", "a/d.txt": "", "e.txt": "" });
    expect((await walkFiles(project.root, ".", { includeDirs: true, maxDepth: 1 })).paths).toEqual(["a/", "e.txt"]);
    expect(await walkFiles(project.root, ".", { limit: 2 })).toEqual({ paths: ["a/b/c.txt", "a/d.txt"], truncated: true });
    expect((await walkFiles(project.root, "a")).paths).toEqual(["a/b/c.txt", "a/d.txt"]);
  });
});
