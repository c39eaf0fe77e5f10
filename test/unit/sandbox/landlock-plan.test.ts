import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { landlockRuleset } from "../../../src/sandbox/landlock-plan.ts";
import { FILE_RIGHTS, FS, fsRights, NET } from "../../../src/sandbox/landlock-syscalls.ts";
import type { SandboxPolicy } from "../../../src/sandbox/sandbox-policy.ts";
import { tempDir } from "../../support/run-shiro.ts";

const policy = (root: string, over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  root, level: "workspace-write", network: false, hide: [], readable: [], writable: [], maskFiles: [], maskDirs: [], readOnly: [], setenv: {}, maxProcs: 64, ...over,
});
const ruleFor = (rules: readonly { path: string; access: bigint }[], path: string) => rules.find((r) => r.path === path)?.access;

test("a secret is left out: the folders on the way to it get their listing alone, everything beside them its own rights, a link no rule", () => {
  const root = tempDir("ll-plan");
  mkdirSync(join(root, "app/config"), { recursive: true });
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "app/config/.env"), "x");
  writeFileSync(join(root, "app/main.ts"), "x");
  writeFileSync(join(root, "README"), "x");
  symlinkSync("/etc", join(root, "app/etc-link"));
  const all = fsRights(7);
  const { rules, handledNet } = landlockRuleset(policy(root, { maskFiles: [join(root, "app/config/.env")] }), 7, "/tmp/x");
  expect(ruleFor(rules, root)).toBe(FS.READ_DIR);
  expect(ruleFor(rules, join(root, "app"))).toBe(FS.READ_DIR);
  expect(ruleFor(rules, join(root, "app/config"))).toBe(FS.READ_DIR);
  expect(ruleFor(rules, join(root, "app/config/.env"))).toBeUndefined();
  expect(ruleFor(rules, join(root, "src"))).toBe(all);
  expect(ruleFor(rules, join(root, "README"))).toBe(all & FILE_RIGHTS);
  expect(ruleFor(rules, join(root, "app/etc-link"))).toBeUndefined();
  expect(handledNet).toBe(NET.BIND_TCP | NET.CONNECT_TCP);
});

test("read-only: the project is read and listed, never written; git's kept paths matter only where the project is writable", () => {
  const root = tempDir("ll-plan-ro");
  mkdirSync(join(root, ".git/hooks"), { recursive: true });
  const { rules } = landlockRuleset(policy(root, { level: "read-only", readOnly: [join(root, ".git/hooks")], network: true }), 7, "/tmp/x");
  expect(ruleFor(rules, root)).toBe(FS.EXECUTE | FS.READ_FILE | FS.READ_DIR);
  expect(ruleFor(rules, "/run")).toBeDefined(); // online: resolv.conf's target is there
});
