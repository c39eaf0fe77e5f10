import { afterEach, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { readFile } from "../../src/tools/read-file.ts";
import { listDir } from "../../src/tools/list-dir.ts";
import { glob } from "../../src/tools/glob.ts";
import { grep } from "../../src/tools/grep.ts";
import { call, tempProject, toolError } from "../support/temp-project.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());

describe("read_file", () => {
  test("numbers lines like cat -n", async () => {
    project = tempProject({ "a.txt": "alpha\nbeta\n" });
    const out = await call(readFile, { path: "a.txt" }, project.ctx());
    expect(out.output).toBe("     1\talpha\n     2\tbeta\n");
    expect(readFile.subject({ path: "a.txt" })).toEqual({ paths: ["a.txt"] });
  });

  test("CRLF line endings are not shown as part of the text", async () => {
    project = tempProject({ "w.txt": "a\r\nb\r\n" });
    expect((await call(readFile, { path: "w.txt" }, project.ctx())).output).toBe("     1\ta\n     2\tb\n");
  });

  test("offset and limit, with the offset to continue from", async () => {
    project = tempProject({ "n.txt": Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") });
    const out = await call(readFile, { path: "n.txt", offset: 3, limit: 2 }, project.ctx());
    expect(out.output).toBe("     3\tline 3\n     4\tline 4\n[showing lines 3-4 of 10; continue with offset=5]");
  });

  test("defaults to 2000 lines", async () => {
    project = tempProject({ "big.txt": "x\n".repeat(2500) });
    const out = await call(readFile, { path: "big.txt" }, project.ctx());
    expect(out.output).toContain("  2000\tx\n[showing lines 1-2000 of 2500; continue with offset=2001]");
    expect(out.output).not.toContain("  2001\t");
  });

  test("caps output at 30,000 chars keeping whole lines", async () => {
    const line = "y".repeat(99);
    project = tempProject({ "wide.txt": `${line}\n`.repeat(1000) });
    const out = await call(readFile, { path: "wide.txt" }, project.ctx());
    // each numbered line is 6 + 1 + 99 + 1 = 107 chars; 280 fit in 30,000
    expect(out.output).toContain("   280\t" + line + "\n[truncated 77040 chars]\n[showing lines 1-280 of 1000; continue with offset=281]");
    expect(out.output.length).toBeLessThan(30_200);
  });

  test("missing file names the path and suggests near names", async () => {
    project = tempProject({ "src/config.ts": "", "src/other.ts": "" });
    expect(await toolError(readFile, { path: "src/confg.ts" }, project.ctx())).toBe("File not found: src/confg.ts. Did you mean: src/config.ts?");
    expect(await toolError(readFile, { path: "nope/x.ts" }, project.ctx())).toBe("File not found: nope/x.ts (its folder nope does not exist either).");
  });

  test("refuses binary files and folders; offset past the end", async () => {
    project = tempProject({ "img.bin": new Uint8Array([0x89, 0x50, 0, 1, 2]), "d/x": "", "s.txt": "one\n" });
    expect(await toolError(readFile, { path: "img.bin" }, project.ctx())).toBe("img.bin is a binary file; it cannot be read or edited as text.");
    expect(await toolError(readFile, { path: "d" }, project.ctx())).toBe("d is a directory, not a file. Use list_dir to see what it contains.");
    expect(await toolError(readFile, { path: "s.txt", offset: 5 }, project.ctx())).toBe("offset 5 is past the end of s.txt, which has 1 lines.");
  });
});

describe("list_dir", () => {
  test("gitignore-aware tree to the given depth", async () => {
    project = tempProject({ ".gitignore": "out/\n", "out/x.js": "", "src/lib/deep.ts": "", "src/main.ts": "", "README.md": "" });
    const out = await call(listDir, {}, project.ctx());
    expect(out.output).toBe([".", "  src/", "    lib/", "    main.ts", "  .gitignore", "  README.md"].join("\n").replace(".", "./"));
    const deep = await call(listDir, { path: "src", depth: 3 }, project.ctx());
    expect(deep.output).toBe(["src/", "  lib/", "    deep.ts", "  main.ts"].join("\n"));
  });

  test("caps at 500 entries and refuses files", async () => {
    const files: Record<string, string> = { "f.txt": "" };
    for (let i = 0; i < 520; i++) files[`many/f${String(i).padStart(3, "0")}`] = "";
    project = tempProject(files);
    const out = await call(listDir, { path: "many" }, project.ctx());
    expect(out.output.split("\n")).toHaveLength(502);
    expect(out.output).toEndWith("[20 more not shown; list a subfolder or use a smaller depth]");
    expect(await toolError(listDir, { path: "f.txt" }, project.ctx())).toBe("f.txt is a file, not a folder. Use read_file to read it.");
    expect(await toolError(listDir, { path: "zz" }, project.ctx())).toBe("Folder not found: zz.");
  });
});

describe("glob", () => {
  test("matches relative to path, skips ignored files, sorted", async () => {
    project = tempProject({ ".gitignore": "gen/\n", "src/b.ts": "", "src/a.ts": "", "src/x/c.ts": "", "src/gen/d.ts": "", "src/e.js": "" });
    expect((await call(glob, { pattern: "**/*.ts" }, project.ctx())).output).toBe("src/a.ts\nsrc/b.ts\nsrc/x/c.ts");
    expect((await call(glob, { pattern: "*.ts", path: "src" }, project.ctx())).output).toBe("src/a.ts\nsrc/b.ts");
    expect((await call(glob, { pattern: "./src/*.ts" }, project.ctx())).output).toBe("src/a.ts\nsrc/b.ts");
    expect((await call(glob, { pattern: "*.py" }, project.ctx())).output).toBe("No files match *.py in the project root.");
  });

  test("caps at 200 with a count of the rest", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 230; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    project = tempProject(files);
    const out = (await call(glob, { pattern: "*.txt" }, project.ctx())).output.split("\n");
    expect(out).toHaveLength(201);
    expect(out[199]).toBe("f199.txt");
    expect(out[200]).toBe("[30 more not shown; narrow the pattern or path]");
  });
});

describe("grep", () => {
  test("file:line: text over text files, gitignore-aware, skipping binaries", async () => {
    project = tempProject({
      ".gitignore": "vendor/\n",
      "src/a.ts": "const load = 1;\nfunction loadAll() {}\n",
      "src/b.md": "loadAll docs\n",
      "vendor/v.ts": "loadAll\n",
      "bin.dat": new Uint8Array([108, 111, 97, 100, 0]),
    });
    expect((await call(grep, { pattern: "load\\w+" }, project.ctx())).output).toBe("src/a.ts:2: function loadAll() {}\nsrc/b.md:1: loadAll docs");
    expect((await call(grep, { pattern: "load", glob: "*.ts" }, project.ctx())).output).toBe("src/a.ts:1: const load = 1;\nsrc/a.ts:2: function loadAll() {}");
    expect((await call(grep, { pattern: "docs", path: "src/b.md" }, project.ctx())).output).toBe("src/b.md:1: loadAll docs");
    expect((await call(grep, { pattern: "zzz" }, project.ctx())).output).toBe("No matches for /zzz/ in the project root.");
  });

  test("a folder search skips what a direct read would be denied, and links out of the folder; it says how many", async () => {
    project = tempProject({ "a.txt": "TOKEN=public\n", ".env": "TOKEN=secret\n", "sub/b.txt": "TOKEN=sub\n" });
    const outside = tempProject({ "passwd": "TOKEN=outside\n" });
    symlinkSync(join(outside.root, "passwd"), join(project.root, "sub/link.txt"));
    const denied = (abs: string) => abs.endsWith("/.env");
    const out = (await call(grep, { pattern: "TOKEN" }, project.ctx({ readDenied: denied }))).output;
    expect(out).toBe("sub/b.txt:1: TOKEN=sub\na.txt:1: TOKEN=public\n[2 files skipped that this search may not read: secret files, or links out of the project root]");
    outside.cleanup();
  });

  test("a file over 5 MB is named as not searched, never a silent 'No matches'", async () => {
    project = tempProject({ "big.log": "x".repeat(5 * 1024 * 1024 + 1) + "\nneedle\n" });
    expect((await call(grep, { pattern: "needle" }, project.ctx())).output).toBe("No matches for /needle/ in the project root.\n[not searched, over 5 MB: big.log]");
  });

  test("caps matches with a count of what was cut", async () => {
    project = tempProject({ "many.txt": "hit\n".repeat(250) });
    const out = (await call(grep, { pattern: "hit" }, project.ctx())).output.split("\n");
    expect(out).toHaveLength(201);
    expect(out[200]).toBe("[50 more matches not shown; narrow the pattern, path or glob]");
  });

  test("an invalid regex is named", async () => {
    project = tempProject({ "a.txt": "x" });
    expect(await toolError(grep, { pattern: "foo(" }, project.ctx())).toStartWith('Invalid regular expression "foo(":');
    expect(await toolError(grep, { pattern: "x", path: "missing" }, project.ctx())).toBe("Path not found: missing.");
  });
});
