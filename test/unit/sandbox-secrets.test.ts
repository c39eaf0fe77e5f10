import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findSecrets } from "../../src/sandbox/find-secrets.ts";
import { removeNewSecrets } from "../../src/sandbox/remove-new-secrets.ts";
import { createSecretScanner } from "../../src/sandbox/secret-scanner.ts";
import { tempDir } from "../support/run-shiro.ts";

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
  const found = findSecrets({ root, home, shiroHome, project: createSecretScanner(root).scan() });
  expect(found.files).toEqual([".env", "app/.env.local", "certs/server.pem", "deep/a/b/id_rsa", "node_modules/x/tls.key"].map((f) => join(root, f)).concat(join(home, ".netrc")).sort());
  expect(found.dirs).toEqual([join(home, ".aws"), join(home, ".ssh"), shiroHome].sort());
});

test("a folder that holds the project is never masked, and a project .ssh folder is masked whole", () => {
  const home = layout([".ssh/config"]);
  const shiroHome = join(home, ".shiro-neko");
  const root = join(shiroHome, "work");
  layout([".ssh/id_rsa", "README"], root);
  const found = findSecrets({ root, home, shiroHome, project: createSecretScanner(root).scan() });
  expect(found.dirs).toEqual([join(home, ".ssh"), join(root, ".ssh")].sort());
  expect(found.files).toEqual([]);
});

test("after a command, secret files and .ssh folders that were not there before are removed and named; old ones stay", () => {
  const root = layout([".env", "src/a.ts"]);
  const scanner = createSecretScanner(root);
  const before = scanner.scan();
  layout([".env.prod", "sub/server.key", ".ssh/authorized_keys", "src/b.ts"], root);
  symlinkSync("/etc/hostname", join(root, "id_rsa"));
  expect(removeNewSecrets(root, before, scanner.scan())).toEqual([".env.prod", ".ssh", "id_rsa", "sub/server.key"]);
  expect([".env", "src/a.ts", "src/b.ts"].every((f) => existsSync(join(root, f)))).toBe(true);
  expect([".env.prod", ".ssh", "id_rsa", "sub/server.key"].some((f) => existsSync(join(root, f)))).toBe(false);
  expect(existsSync("/etc/hostname")).toBe(true);
});

test("the scanner remembers folders by mtime, yet sees a secret added to a folder it had cached, and one renamed away", () => {
  const root = layout(["a/b/c/keep.txt", "a/notes.txt", "z/y.txt"]);
  // Old folders are trusted from the cache; make every folder old.
  const past = new Date(Date.now() - 60_000);
  for (const dir of ["a/b/c", "a/b", "a", "z", "."]) utimesSync(join(root, dir), past, past);
  const scanner = createSecretScanner(root);
  expect(scanner.scan()).toEqual([]);
  writeFileSync(join(root, "a/b/c/.env"), "x");
  expect(scanner.scan()).toEqual([join(root, "a/b/c/.env")]);
  renameSync(join(root, "a/b/c/.env"), join(root, "a/b/c/env.txt"));
  mkdirSync(join(root, "z/new/.ssh"), { recursive: true });
  expect(scanner.scan()).toEqual([join(root, "z/new/.ssh")]);
});

test("shiro's home is not masked when it is the home itself (or holds it): that would hide the whole home", () => {
  const home = layout([".bash_profile", ".ssh/id_rsa"]);
  const root = layout(["README"]);
  expect(findSecrets({ root, home, shiroHome: home, project: [] }).dirs).toEqual([join(home, ".ssh")]);
});
