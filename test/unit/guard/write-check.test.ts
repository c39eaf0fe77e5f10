import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createWriteCheck } from "../../../src/guard/write-check.ts";
import { tempDir } from "../../support/run-shiro.ts";

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

test("the guard's refusal of where a write really lands; the path is judged as it stands, never resolved again", () => {
  base = tempDir("write-check");
  const root = join(base, "project");
  mkdirSync(join(base, "home/.ssh"), { recursive: true });
  mkdirSync(root);
  const refused = createWriteCheck({ home: join(base, "home") });
  expect(refused("write_file", join(root, "keys/.ssh/authorized_keys"), root)).toStartWith("guard: secret file keys/.ssh/authorized_keys — the guard never lets anything write");
  expect(refused("edit_file", join(root, "config/.env.local"), root)).toStartWith("guard: secret file config/.env.local — ");
  expect(refused("write_file", join(root, "src/a.ts"), root)).toBeUndefined();
  // `sub` is a link to .ssh now, but the file tools walked `sub` as a real folder: that is what counts.
  symlinkSync(join(base, "home/.ssh"), join(root, "sub"));
  expect(refused("write_file", join(root, "sub/authorized_keys"), root)).toBeUndefined();
});
