import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findSecrets } from "../../../src/sandbox/find-secrets.ts";
import { commandAftermath, identityOf } from "../../../src/sandbox/command-aftermath.ts";
import { createSecretScanner } from "../../../src/sandbox/secret-scanner.ts";
import { tempDir } from "../../support/run-shiro.ts";

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function layout(files: string[], base = tempDir("secrets")) {
  made.push(base);
  for (const f of files) {
    mkdirSync(join(base, f, ".."), { recursive: true });
    writeFileSync(join(base, f), "x");
  }
  return base;
}

test("finds secret files anywhere in the project (ignored ones too), not in .git, not .env.example; the home's credential folders whole", () => {
  const root = layout([".env", "app/.env.local", "certs/server.pem", "deep/a/b/id_rsa", "keys/id_rsa.pub", ".env.example", ".git/.env", "node_modules/x/tls.key", "src/a.ts"]);
  writeFileSync(join(root, ".gitignore"), ".env\nnode_modules\n");
  const home = layout([".ssh/id_ed25519", ".aws/credentials", ".netrc", ".bashrc", "notes/.env"]);
  const shiroHome = layout(["sessions/s.json"]);
  symlinkSync("nowhere", join(root, ".env.dangling"));
  const found = findSecrets({ root, home, shiroHome, project: createSecretScanner(root).scan().secrets });
  expect(found.files).toEqual([".env", "app/.env.local", "certs/server.pem", "deep/a/b/id_rsa", "node_modules/x/tls.key"].map((f) => join(root, f)).concat(join(home, ".netrc")).sort());
  expect(found.dirs).toEqual([join(home, ".aws"), join(home, ".ssh"), shiroHome].sort());
});

test("a folder that holds the project is never masked, and a project .ssh folder is masked whole", () => {
  const home = layout([".ssh/config"]);
  const shiroHome = join(home, ".shiro-neko");
  const root = join(shiroHome, "work");
  layout([".ssh/id_rsa", "README"], root);
  const found = findSecrets({ root, home, shiroHome, project: createSecretScanner(root).scan().secrets });
  expect(found.dirs).toEqual([join(home, ".ssh"), join(root, ".ssh")].sort());
  expect(found.files).toEqual([]);
});

test("after a command, a secret file it made is kept, named and counts as a denial; one only moved (mv app app2) is neither", () => {
  const root = layout([".env", "app/.env", "src/a.ts"]);
  const scanner = createSecretScanner(root);
  const before = scanner.scan();
  const knownIds = new Set(before.secrets.map((p) => identityOf(p)!));
  renameSync(join(root, "app"), join(root, "app2"));
  layout([".env.prod", "sub/server.key", "src/b.ts"], root);
  const after = commandAftermath({ root, quarantine: join(root, "..", "q"), before, knownIds, after: scanner.scan() });
  expect(after.denied).toBe(true);
  expect(after.notes.join("\n")).toContain(".env.prod, sub/server.key");
  expect(after.notes.join("\n")).not.toContain("app2");
  for (const f of [".env", "app2/.env", ".env.prod", "sub/server.key", "src/b.ts"]) expect(existsSync(join(root, f))).toBe(true);
});

test("after a command, a git repository it made that would run code is moved whole into the quarantine; one git init made stays", () => {
  const root = layout(["src/a.ts"]);
  const scanner = createSecretScanner(root);
  const before = scanner.scan();
  layout(["plain/.git/hooks/pre-commit.sample", "evil/.git/HEAD", "hooked/.git/hooks/post-checkout"], root);
  writeFileSync(join(root, "plain/.git/config"), "[core]\n\trepositoryformatversion = 0\n[remote \"origin\"]\n\turl = https://example.invalid/x\n");
  writeFileSync(join(root, "evil/.git/config"), "[core]\n\tfsmonitor = touch /tmp/planted\n");
  const quarantine = join(root, "..", `q-${Date.now()}`);
  made.push(quarantine);
  const after = commandAftermath({ root, quarantine, before, knownIds: new Set(), after: scanner.scan() });
  expect(after.denied).toBe(true);
  expect(existsSync(join(root, "plain/.git/config"))).toBe(true);
  expect(existsSync(join(root, "evil/.git"))).toBe(false);
  expect(existsSync(join(root, "hooked/.git"))).toBe(false);
  const kept = Bun.spawnSync(["find", quarantine, "-name", "config"]).stdout.toString();
  expect(kept).toContain("evil__.git/config");
});

test("after a command, a repository of the person's that it moved with its folder is left where it went, hooks and all", () => {
  const root = layout(["vendor/lib/.git/HEAD", "vendor/lib/.git/hooks/pre-commit", "vendor/lib/src.c"]);
  const scanner = createSecretScanner(root);
  const before = scanner.scan();
  const knownIds = new Set([...before.secrets, ...before.gits].map((p) => identityOf(p)!));
  renameSync(join(root, "vendor/lib"), join(root, "vendor/lib2"));
  const after = commandAftermath({ root, quarantine: join(root, "..", `q-moved-${Date.now()}`), before, knownIds, after: scanner.scan() });
  expect(after).toEqual({ notes: [], denied: false });
  expect(existsSync(join(root, "vendor/lib2/.git/hooks/pre-commit"))).toBe(true);
});

test("the scanner trusts a folder it read only while its change time holds: a secret planted and the folder's mtime set back (touch -r) is seen", async () => {
  const root = layout(["a/b/c/keep.txt", "a/notes.txt", "z/y.txt"]);
  const past = new Date(Date.now() - 60_000);
  for (const dir of ["a/b/c", "a/b", "a", "z", "."]) utimesSync(join(root, dir), past, past);
  await Bun.sleep(150); // past the racy window: the folders are cached from here on
  const scanner = createSecretScanner(root);
  expect(scanner.scan().secrets).toEqual([]);
  writeFileSync(join(root, "a/b/c/.env"), "x");
  utimesSync(join(root, "a/b/c"), past, past);
  expect(scanner.scan().secrets).toEqual([join(root, "a/b/c/.env")]);
  renameSync(join(root, "a/b/c/.env"), join(root, "a/b/c/env.txt"));
  mkdirSync(join(root, "z/new/.ssh"), { recursive: true });
  expect(scanner.scan().secrets).toEqual([join(root, "z/new/.ssh")]);
});

test("shiro's home is not masked when it is the home itself (or holds it): that would hide the whole home", () => {
  const home = layout([".bash_profile", ".ssh/id_rsa"]);
  const root = layout(["README"]);
  expect(findSecrets({ root, home, shiroHome: home, project: [] }).dirs).toEqual([join(home, ".ssh")]);
});
