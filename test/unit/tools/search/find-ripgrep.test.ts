import { expect, test } from "bun:test";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findRipgrep } from "../../../../src/tools/search/find-ripgrep.ts";
import { findTrusted } from "../../../../src/process/trusted-program.ts";
import { toolHere } from "../../../support/tool-here.ts";

const hasRg = toolHere("rg", findTrusted("rg").ok);

test("an rg in a folder anyone may write (a project's node_modules/.bin under /tmp) is refused, with why", () => {
  const dir = mkdtempSync(join(tmpdir(), "shiro-rg-"));
  writeFileSync(join(dir, "rg"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, "rg"), 0o755);
  const found = findRipgrep([dir]);
  expect("why" in found && found.why).toStartWith("rg was refused: ");
});

test("no rg in the folders: none is taken (not even the one on PATH), and why is said", () => {
  const found = findRipgrep(["/nonexistent-a", "/nonexistent-b"]);
  expect("why" in found && found.why).toStartWith("rg is not ");
});

test.skipIf(!hasRg)("the system's rg is found by absolute path", () => {
  const found = findRipgrep();
  expect("rg" in found && found.rg).toStartWith("/");
});
