/**
 * What a sandbox shows of a program the person chose to run there (sandbox/program-reach.ts): the top of
 * its installation, and never so much that the home, the project's siblings or `/` come into sight.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { programReach } from "../../../src/sandbox/program-reach.ts";
import { tempDir } from "../../support/run-shiro.ts";

const base = tempDir("program-reach");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, "home");
const root = join(home, "code", "app");
const file = (path: string, text = "") => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
file(join(root, "package.json"));
const reach = (files: string[], cwd?: string) => programReach(files, cwd, { root, homes: [home], seen: [root] });

test("a package beside the project: the package, not the folder holding both", () => {
  const main = file(join(home, "code", "mcp-srv", "dist", "index.js"));
  file(join(home, "code", "mcp-srv", "package.json"));
  file(join(home, "code", ".git", "HEAD")); // a checkout holding the project too: never shown whole
  expect(reach([main])).toEqual([join(home, "code", "mcp-srv")]);
});

test("a dependency deep in a clone's node_modules: the clone, where its own dependencies are", () => {
  const clone = join(base, "clone");
  file(join(clone, "package.json"));
  file(join(clone, "node_modules", "@scope", "server", "package.json"));
  const main = file(join(clone, "node_modules", "@scope", "server", "dist", "index.js"));
  expect(reach([main])).toEqual([clone]);
});

test("a link on the PATH into a venv: the link's folder and the venv", () => {
  const venv = join(home, ".local", "share", "pipx", "venvs", "fetch");
  file(join(venv, "pyvenv.cfg"));
  const real = file(join(venv, "bin", "mcp-fetch"));
  const link = join(home, "links", "mcp-fetch");
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(real, link);
  expect(reach([link]).sort()).toEqual([join(home, "links"), venv].sort());
});

test("never the home, / or a top folder: a file at the home's top is shown alone; a folder with no mark, as itself", () => {
  const atTop = file(join(home, "server.js"));
  expect(reach([atTop])).toEqual([atTop]);
  const inBin = file(join(home, "bin", "server"));
  expect(reach([inBin])).toEqual([join(home, "bin")]);
  expect(reach([], home)).toEqual([]);
  expect(reach([], base)).toEqual([]);
});

test("what the sandbox shows already, and what does not exist, add nothing", () => {
  expect(reach([file(join(root, "server.ts")), "/usr/bin/env", join(base, "nowhere")], root)).toEqual([]);
});
