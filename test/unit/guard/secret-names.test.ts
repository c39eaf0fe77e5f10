import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGuard } from "../../../src/guard/guard.ts";
import { createReadCheck } from "../../../src/guard/read-check.ts";
import { secretNames } from "../../../src/guard/secret-names.ts";
import type { GateCall } from "../../../src/guard/verdict.ts";
import { secretTest } from "../../../src/tools/search/secret-test.ts";
import { tempDir } from "../../support/run-shiro.ts";

const root = realpathSync(tempDir("names-root"));
const home = realpathSync(tempDir("names-home"));
mkdirSync(join(root, "config"));
writeFileSync(join(root, ".env"), "A=1\n");
const bash = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: { command }, subject: { command }, root });
const refused = (guard: ReturnType<typeof createGuard>, command: string) => guard(bash(command))?.decision === "deny";

describe("the guard: a secret file read out of git", () => {
  const guard = createGuard({ home });
  test.each([
    "git show HEAD:.env", "git show HEAD~3:config/../.env", "git cat-file -p HEAD:.env", "git cat-file -p :0:.env", "git show HEAD -- .env",
    "git log -p -- .env", "git log -p --follow .env", "git diff HEAD~1 -- prod.env", "git archive HEAD .npmrc", "git archive --format=tar HEAD -- '*.pem'",
    "git -C config show HEAD:../.env", "git -c alias.s=show s HEAD:.env", "git grep -e KEY HEAD -- .env", "git blame .envrc", "git checkout HEAD~2 -- .env",
    "cd config && git show HEAD:./../.env", "git show main:deploy/credentials.json", "git --no-pager log -p -- '*.env'",
  ])("%p is refused", (command) => expect(refused(guard, command)).toBe(true));
  test.each([
    "git show HEAD", "git log -p", "git show HEAD:src/app.ts", "git diff", "git archive HEAD", "git log --format=%H:%s", "git show HEAD:.env.example",
    "git add .env", "git status", "git diff -- src", "git cat-file -p 0123abcd",
  ])("%p has no objection from the guard", (command) => expect(refused(guard, command)).toBe(false));
});

describe("config secretFiles: extra names, honoured by the guard, the read check and the searches", () => {
  const names = secretNames(["*.secret", "vault/*.txt"]);
  test("the extra globs: a name anywhere, a path at its end; the built-in names stay", () => {
    expect(["/p/a.secret", "/p/deep/B.SECRET", "/p/vault/x.txt", "/p/.env", "/p/.npmrc"].filter((p) => !names.isSecretPath(p))).toEqual([]);
    expect(["/p/a.secrets", "/p/x.txt", "/p/vaults/x.txt", "/p/vault/sub/x.txt"].filter(names.isSecretPath)).toEqual([]);
  });
  test("searches leave them out (the same test a walk applies)", () => {
    const skip = secretTest(names.globs);
    expect([["a.secret", "a.secret"], ["x.txt", "vault/x.txt"], [".env", ".env"]].filter(([n, p]) => !skip(n!, p!))).toEqual([]);
    expect(skip("x.txt", "src/x.txt")).toBe(false);
  });
  test("the guard refuses writing them and reading them out of git; a read of one is denied even to --yolo", () => {
    const guard = createGuard({ home, secrets: names });
    expect(refused(guard, "echo x > db.secret")).toBe(true);
    expect(refused(guard, "git show HEAD:vault/k.txt")).toBe(true);
    expect(refused(guard, "echo x > *.secret")).toBe(true);
    expect(refused(createGuard({ home }), "echo x > db.secret")).toBe(false);
    const readDenied = createReadCheck({ rules: [], home, secrets: names });
    expect(readDenied("read_file", join(root, "db.secret"), root)).toBe(true);
    expect(readDenied("read_file", join(root, "vault", "k.txt"), root)).toBe(true);
    expect(readDenied("read_file", join(root, "notes.txt"), root)).toBe(false);
    expect(createReadCheck({ rules: [], home })("read_file", join(root, "db.secret"), root)).toBe(false);
  });
  test("no extra globs: the built-in names as they are", () => {
    expect(secretNames([]).isSecretPath("/p/a.secret")).toBe(false);
    expect(secretNames([]).globs.length).toBe(secretNames(["x"]).globs.length - 1);
  });
});
