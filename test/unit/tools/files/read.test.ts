import { afterEach, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { readFile } from "../../../../src/tools/files/read-file.ts";
import { listDir } from "../../../../src/tools/files/list-dir.ts";
import { glob } from "../../../../src/tools/search/glob.ts";
import { call, tempProject, toolError } from "../../../support/temp-project.ts";
import { wideTree } from "../../../support/wide-tree.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());

describe("read_file", () => {
  test("numbers lines like cat -n", async () => {
    project = tempProject({ "a.txt": "alpha\nbeta\n" });
    const out = await call(readFile, { path: "a.txt" }, project.ctx());
    expect(out.output).toBe("     1\talpha\n     2\tbeta\n");
    expect(readFile.subject({ path: "a.txt" })).toEqual({ paths: ["a.txt"] });
  });

  test("a link is followed wherever it leads, even out of the project; where it lands is judged again", async () => {
    project = tempProject({ "keys/.env": "TOKEN=secret\n" });
    const outside = tempProject({ "notes.md": "shared notes\n" });
    symlinkSync(outside.root, join(project.root, "shared"));
    symlinkSync("keys", join(project.root, "docs"));
    // The judge sees only the path where the read lands: the name the model gave (docs/.env) is not a secret's.
    const ctx = project.ctx({ readDenied: (abs, asked) => asked !== undefined && abs.endsWith("/keys/.env") });
    expect((await call(readFile, { path: "shared/notes.md" }, ctx)).output).toBe("     1\tshared notes\n");
    const refused = await toolError(readFile, { path: "docs/.env" }, ctx);
    expect(refused).not.toContain("TOKEN");
    expect(refused).toStartWith("docs/.env leads to keys/.env, which may not be read");
    outside.cleanup();
  });

  test("a FIFO is refused at once, not waited on", async () => {
    project = tempProject();
    expect(Bun.spawnSync(["mkfifo", join(project.root, "pipe")]).exitCode).toBe(0);
    expect(await toolError(readFile, { path: "pipe" }, project.ctx())).toContain("not a regular file");
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

describe("glob: a pattern's fixed leading folders", () => {
  // (What that saves, a walk of the folder alone, is timed in `bun run bench tools`.)
  test("start the walk: a large sibling tree changes nothing of what it finds", async () => {
    project = tempProject({ "src/tools/a.ts": "", "src/tools/deep/b.ts": "", "src/c.ts": "" });
    wideTree(join(project.root, "big"), 20_000, { linked: true });
    const narrow = (await call(glob, { pattern: "src/tools/**/*.ts" }, project.ctx())).output;
    expect(narrow).toBe("src/tools/a.ts\nsrc/tools/deep/b.ts");
    expect((await call(glob, { pattern: "**/tools/**/*.ts" }, project.ctx())).output).toBe(narrow);
  });

  test("find what a walk of the whole folder finds: nothing under a hidden folder or through a linked one", async () => {
    project = tempProject({ ".gitignore": "gen/\n", "src/gen/g.ts": "", "src/x/y.ts": "", "real/r.ts": "" });
    symlinkSync(join(project.root, "real"), join(project.root, "src/linked"));
    expect((await call(glob, { pattern: "src/gen/*.ts" }, project.ctx())).output).toBe("No files match src/gen/*.ts in the project root. (src/gen is hidden by .gitignore; give it as `path` to search it.)");
    expect((await call(glob, { pattern: "*.ts", path: "src/gen" }, project.ctx())).output).toBe("src/gen/g.ts");
    expect((await call(glob, { pattern: "src/linked/*.ts" }, project.ctx())).output).toBe("No files match src/linked/*.ts in the project root.");
    expect((await call(glob, { pattern: "src/x/y.ts" }, project.ctx())).output).toBe("src/x/y.ts");
    expect((await call(glob, { pattern: "x/*.ts", path: "src" }, project.ctx())).output).toBe("src/x/y.ts");
  });
});

describe("glob and list_dir: files no read may open", () => {
  test("are listed by name and marked; links inside the project are not", async () => {
    project = tempProject({ ".env": "TOKEN=secret\n", "a.txt": "", "sub/b.txt": "" });
    const outside = tempProject({ passwd: "root:x:0:0\n" });
    symlinkSync(join(outside.root, "passwd"), join(project.root, "sub/out.txt"));
    symlinkSync(join(project.root, "a.txt"), join(project.root, "sub/in.txt"));
    const ctx = project.ctx({ readDenied: (abs) => abs.endsWith("/.env") });
    expect((await call(glob, { pattern: "**/*" }, ctx)).output).toBe(".env  [read denied]\na.txt\nsub/b.txt\nsub/in.txt\nsub/out.txt  [link out of the project]");
    expect((await call(listDir, {}, ctx)).output).toBe(["./", "  sub/", "    b.txt", "    in.txt", "    out.txt  [link out of the project]", "  .env  [read denied]", "  a.txt"].join("\n"));
    outside.cleanup();
  });
});
