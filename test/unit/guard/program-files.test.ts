/** The project's files a hook's command line or a server's program line would run: what the model may not write. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hookProgramFiles, programFiles } from "../../../src/guard/program-files.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "program-files-")));
mkdirSync(join(root, "scripts"));
writeFileSync(join(root, "scripts", "fmt.sh"), "");
writeFileSync(join(root, "server.js"), "");
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = "/nonexistent-home";

test("a hook's scripts: named by a path, by $CLAUDE_PROJECT_DIR, given to an interpreter, in a later command", () => {
  expect(hookProgramFiles("./scripts/fmt.sh", root, home)).toEqual([join(root, "scripts/fmt.sh")]);
  expect(hookProgramFiles('"$CLAUDE_PROJECT_DIR"/scripts/fmt.sh --fix', root, home)).toEqual([join(root, "scripts/fmt.sh")]);
  expect(hookProgramFiles("bash -e scripts/fmt.sh", root, home)).toEqual([join(root, "scripts/fmt.sh")]);
  expect(hookProgramFiles("cd scripts && sh fmt.sh", root, home)).toEqual([join(root, "scripts/fmt.sh")]);
  expect(hookProgramFiles(". scripts/fmt.sh", root, home)).toEqual([join(root, "scripts/fmt.sh")]);
  // A `bash -c` script is read as the commands it holds.
  expect(hookProgramFiles("bash -c 'sh x.sh'", root, home)).toEqual([join(root, "x.sh")]);
});

test("not the data other programs are given, a folder or a file outside the project", () => {
  expect(hookProgramFiles("tr a-z A-Z < notes.txt > notes.tmp && mv notes.tmp notes.txt && npx prettier --write .", root, home)).toEqual([]);
  expect(hookProgramFiles("node .; sh /usr/bin/true", root, home)).toEqual([]);
});

test("a server's program line: its script, missing or not, where the server runs", () => {
  expect(programFiles(["node", "server.js"], root, root, home)).toEqual([join(root, "server.js")]);
  expect(programFiles(["bun", "run", "tools/new.ts"], root, root, home)).toEqual([join(root, "tools/new.ts")]);
  expect(programFiles(["/usr/bin/bun.exe", "server.js"], root, root, home)).toEqual([join(root, "server.js")]);
  expect(programFiles(["python3.12", "-u", "../server.js"], join(root, "scripts"), root, home)).toEqual([join(root, "server.js")]);
  expect(programFiles(["npx", "-y", "@acme/db-mcp", "server.js"], root, root, home)).toEqual([]);
});
