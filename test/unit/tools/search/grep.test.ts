import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { grep } from "../../../../src/tools/search/grep.ts";
import { SECRET_GLOBS } from "../../../../src/guard/secret-globs.ts";
import type { ToolContext } from "../../../../src/tools/tool.ts";
import { call, tempProject, toolError } from "../../../support/temp-project.ts";
import { testToolEnv } from "../../../support/no-secrets.ts";
import { findTrusted } from "../../../../src/process/trusted-program.ts";
import { toolHere } from "../../../support/tool-here.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());

// Every behaviour holds with ripgrep and without it (the JavaScript scan). grep takes rg from the
// system folders only, so "without" is a run whose SHIRO_SYSTEM_DIRS names a folder with no rg.
const BACKENDS: [string, string | undefined][] = [
  ["with ripgrep", undefined],
  ["without ripgrep", "/nonexistent-no-rg"],
];
const hasRg = toolHere("rg", findTrusted("rg").ok);
const env: Partial<ToolContext> = { env: testToolEnv };

/** SHIRO_SYSTEM_DIRS as `dirs` for each test of the enclosing describe. */
function systemDirsInTests(dirs: string | undefined) {
  const before = process.env.SHIRO_SYSTEM_DIRS;
  const set = (value: string | undefined) => (value === undefined ? delete process.env.SHIRO_SYSTEM_DIRS : (process.env.SHIRO_SYSTEM_DIRS = value));
  beforeEach(() => set(dirs));
  afterEach(() => set(before));
}

for (const [backend, dirs] of BACKENDS) {
  describe.skipIf(backend === "with ripgrep" && !hasRg)(`grep ${backend}`, () => {
    systemDirsInTests(dirs);
    const ctx = (extra: Partial<ToolContext> = {}) => project.ctx({ ...env, ...extra });
    const out = async (args: Record<string, string>, extra?: Partial<ToolContext>) => (await call(grep, args, ctx(extra))).output;

    test("file:line: text over text files, sorted by path, gitignore-aware, skipping binaries", async () => {
      project = tempProject({
        ".gitignore": "vendor/\n",
        "src/a.ts": "const load = 1;\nfunction loadAll() {}\n",
        "src/b.md": "loadAll docs\n",
        "vendor/v.ts": "loadAll\n",
        "bin.dat": new Uint8Array([108, 111, 97, 100, 65, 0]),
        "README.md": "loadAll here\r\n",
      });
      expect(await out({ pattern: "load\\w+" })).toBe("README.md:1: loadAll here\nsrc/a.ts:2: function loadAll() {}\nsrc/b.md:1: loadAll docs");
      expect(await out({ pattern: "load", glob: "*.ts" })).toBe("src/a.ts:1: const load = 1;\nsrc/a.ts:2: function loadAll() {}");
      expect(await out({ pattern: "load", glob: "src/*.md" })).toBe("src/b.md:1: loadAll docs");
      expect(await out({ pattern: "load", path: "src", glob: "*.md" })).toBe("src/b.md:1: loadAll docs");
      expect(await out({ pattern: "docs", path: "src/b.md" })).toBe("src/b.md:1: loadAll docs");
      expect(await out({ pattern: "loadAll", path: "vendor" })).toBe("vendor/v.ts:1: loadAll");
      expect(await out({ pattern: "zzz" })).toBe("No matches for /zzz/ in the project root.");
    });

    test("JavaScript's regex dialect, whichever engine searched", async () => {
      project = tempProject({ "t.txt": "x٣y\nx3y\nab\ncb\na😀b\n(a)a\npath/to\n" });
      expect(await out({ pattern: "x\\dy" })).toBe("t.txt:2: x3y");
      expect(await out({ pattern: "(?<!a)b" })).toBe("t.txt:4: cb\nt.txt:5: a😀b"); // a UTF-16 unit of the emoji precedes b
      expect(await out({ pattern: "^a..b$" })).toBe("t.txt:5: a😀b");
      expect(await out({ pattern: "\\((\\w)\\)\\1" })).toBe("t.txt:6: (a)a");
      expect(await out({ pattern: "h\\/t" })).toBe("t.txt:7: path/to");
      expect(await out({ pattern: "(?i:AB)" })).toBe("t.txt:3: ab");
    });

    test("secret files are left unopened and links are not followed; the skips are counted", async () => {
      project = tempProject({ "a.txt": "TOKEN=public\n", ".env": "TOKEN=secret\n", "keys/server.pem": "TOKEN=pem\n", "deny.lock": "TOKEN=rule\n", "sub/b.txt": "TOKEN=sub\n" });
      const outside = tempProject({ passwd: "TOKEN=outside\n" });
      symlinkSync(join(outside.root, "passwd"), join(project.root, "sub/link.txt"));
      symlinkSync(join(project.root, "a.txt"), join(project.root, "sub/inside.txt"));
      const judged: string[] = [];
      const readDenied = (abs: string) => {
        judged.push(abs.slice(project.root.length + 1));
        return abs.endsWith(".lock") || abs.endsWith("/.env") || abs.endsWith(".pem");
      };
      expect(await out({ pattern: "TOKEN" }, { readDenied, secretGlobs: SECRET_GLOBS })).toBe(
        "a.txt:1: TOKEN=public\nsub/b.txt:1: TOKEN=sub\n[3 files skipped that this search may not read: secret files, or files a rule denies]",
      );
      // Judged only at a match, so never the secrets: nothing was read from them to match.
      expect(judged.sort()).toEqual(["a.txt", "deny.lock", "sub/b.txt"]);
      outside.cleanup();
    });

    test("the first 200 matches by path and line, with a count of the rest", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 30; i++) files[`d${i % 3}/f${String(i).padStart(2, "0")}.txt`] = "hit\n".repeat(10);
      project = tempProject(files);
      const lines = (await out({ pattern: "hit" })).split("\n");
      expect(lines).toHaveLength(201);
      expect(lines[0]).toBe("d0/f00.txt:1: hit");
      expect(lines[199]).toBe("d1/f28.txt:10: hit");
      expect(lines[200]).toBe("[100 more matches not shown; narrow the pattern, path or glob]");
    });

    test("a file with a NUL byte anywhere is binary, even one found past its first matches", async () => {
      project = tempProject({ "late.bin": Buffer.concat([Buffer.from(`needle\n${"x".repeat(100_000)}\n`), Buffer.from([0]), Buffer.from("needle\n")]), "a.txt": "needle\n" });
      expect(await out({ pattern: "needle" })).toBe("a.txt:1: needle");
    });

    test("long lines are clipped at 300 chars", async () => {
      project = tempProject({ "wide.txt": `hit${"x".repeat(400)}\n` });
      expect(await out({ pattern: "hit" })).toBe(`wide.txt:1: hit${"x".repeat(297)}… [103 more chars]`);
    });

    test("an invalid regex and a missing path are named", async () => {
      project = tempProject({ "a.txt": "x" });
      expect(await toolError(grep, { pattern: "foo(" }, ctx())).toStartWith('Invalid regular expression "foo(":');
      expect(await toolError(grep, { pattern: "x", path: "missing" }, ctx())).toBe("Path not found: missing.");
    });
  });
}

describe("grep over files larger than 5 MB", () => {
  const big = () => tempProject({ "big.log": "x".repeat(5 * 1024 * 1024 + 1) + "\nneedle\n" });

  test.skipIf(!hasRg)("ripgrep searches them", async () => {
    project = big();
    expect((await call(grep, { pattern: "needle" }, project.ctx({ env: testToolEnv }))).output).toBe("big.log:2: needle");
  });

  describe("without ripgrep", () => {
    systemDirsInTests(BACKENDS[1]![1]);
    test("they are named as not searched, never a silent 'No matches'", async () => {
      project = big();
      const out = (await call(grep, { pattern: "needle" }, project.ctx(env))).output;
      expect(out).toBe("No matches for /needle/ in the project root.\n[not searched, over 5 MB: big.log]");
    });
  });
});

describe.each(BACKENDS)("grep %s: a folder named like a secret", (backend, dirs) => {
  systemDirsInTests(dirs);
  test.skipIf(backend === "with ripgrep" && !hasRg)("is left out whole and counted once", async () => {
    project = tempProject({ ".ssh/config": "Host x\n", ".ssh/known_hosts": "Host y\n", "certs.key/readme.txt": "Host z\n", "a.txt": "Host a\n" });
    expect((await call(grep, { pattern: "Host" }, project.ctx({ ...env, secretGlobs: SECRET_GLOBS }))).output).toBe(
      "a.txt:1: Host a\n[2 files skipped that this search may not read: secret files, or files a rule denies]",
    );
  });
});
