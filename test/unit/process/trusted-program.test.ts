import { afterAll, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectSandbox } from "../../../src/sandbox/detect-sandbox.ts";
import { changedSince, findTrusted } from "../../../src/process/trusted-program.ts";
import { tempDir } from "../../support/run-shiro.ts";

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const isRoot = process.getuid?.() === 0;

function fakeProgram(name: string, script = "#!/bin/sh\nexit 0\n") {
  const dir = tempDir("trusted");
  made.push(dir);
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin", name), script, { mode: 0o755 });
  return join(dir, "bin");
}

test("a program is found in the system folders, by its real path, whatever PATH holds", () => {
  const found = findTrusted("sh");
  expect(found.ok).toBe(true);
  if (found.ok) expect(found.program.path.startsWith("/usr/") || found.program.path.startsWith("/bin/")).toBe(true);
});

test("a folder anyone may write (every temp folder sits in /tmp, sticky and world-writable) is refused, naming why", () => {
  const found = findTrusted("bwrap", [fakeProgram("bwrap")]);
  expect(found.ok).toBe(false);
  if (!found.ok) expect(found.why).toContain("writable by anyone");
});

test.skipIf(!isRoot)("a program root does not own is refused, even in a folder root owns", () => {
  const dir = tempDir("trusted-owner");
  made.push(dir);
  writeFileSync(join(dir, "x"), "#!/bin/sh\n", { mode: 0o755 });
  chownSync(join(dir, "x"), 1000, 1000);
  chmodSync(dir, 0o755);
  // The file is judged before the folders above it, so its owner is the reason given.
  const found = findTrusted("x", [dir]);
  expect(found.ok).toBe(false);
  if (!found.ok) expect(found.why).toContain("owned by uid 1000, not root");
});

test("a vetted program that is replaced afterwards is no longer the program that was vetted", () => {
  const found = findTrusted("sh");
  if (!found.ok) throw new Error(found.why);
  expect(changedSince(found.program)).toBeUndefined();
  expect(changedSince({ ...found.program, identity: "0:0:0:0:0" })).toContain("was replaced or changed");
});

test("a bwrap that cannot make its namespaces (user namespaces refused) is no sandbox, and the reason names bwrap's own words", async () => {
  const bin = fakeProgram("bwrap", "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
  const support = await detectSandbox({ platform: "linux", find: () => ({ ok: true, program: { path: join(bin, "bwrap"), identity: "" } }), abi: () => 0 });
  expect(support.kind).toBe("none");
  if (support.kind === "none") {
    expect(support.why).toBe("bwrap cannot create its namespaces here (bwrap: setting up uid map: Permission denied), and the kernel offers no Landlock");
    expect(support.fix).toContain("allow unprivileged user namespaces");
  }
});

test("a bwrap refused its namespaces hands over to Landlock where the kernel has it, saying why it was passed over", async () => {
  const bin = fakeProgram("bwrap", "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
  const support = await detectSandbox({ platform: "linux", find: () => ({ ok: true, program: { path: join(bin, "bwrap"), identity: "" } }), abi: () => 4, gate: () => ({ ok: true }) });
  expect(support).toEqual({ kind: "landlock", abi: 4, gate: true, passedOver: "bwrap cannot create its namespaces here (bwrap: setting up uid map: Permission denied)" });
  // Forced, bubblewrap is that or nothing.
  const forced = await detectSandbox({ platform: "linux", backend: "bwrap", find: () => ({ ok: true, program: { path: join(bin, "bwrap"), identity: "" } }), abi: () => 4 });
  expect(forced.kind).toBe("none");
});
