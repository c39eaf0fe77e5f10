/**
 * The Landlock launcher (`shiro __landlock`, issue 19's groundwork): the compiled binary restricts itself
 * to the ruleset it is handed on fd 4 and execs the command inside. Outcomes: a file outside the grants
 * is neither read nor written, a loopback listener hears nothing when TCP is handled, the environment of
 * a process outside the domain (this test's, holding a marker) cannot be read through /proc.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FS, fsRights, landlockAbi, NET, SCOPE } from "../../../src/sandbox/landlock-syscalls.ts";
import { BINARY } from "../../support/binary.ts";
import { tempDir } from "../../support/run-shiro.ts";

const abi = landlockAbi();
const READ = FS.EXECUTE | FS.READ_FILE | FS.READ_DIR;
const SYSTEM = ["/usr", "/bin", "/lib", "/lib64", "/etc", "/proc", "/dev"];

async function launch(command: string, grants: { path: string; access: bigint }[], opts: { net?: boolean; plan?: string } = {}) {
  const plan =
    opts.plan ??
    JSON.stringify({
      abi,
      handledFs: String(fsRights(abi)),
      handledNet: String(opts.net ? 0n : NET.BIND_TCP | NET.CONNECT_TCP),
      scoped: String(SCOPE.ABSTRACT_UNIX_SOCKET | SCOPE.SIGNAL),
      rules: [...SYSTEM.map((path) => ({ path, access: READ })), ...grants].map((r) => ({ path: r.path, access: String(r.access) })),
      argv: ["/bin/bash", "-c", command],
      setenv: {},
      cwd: "/",
    });
  const proc = Bun.spawn([BINARY, "__landlock"], { env: { PATH: "/usr/bin:/bin" }, stdio: ["ignore", "pipe", "pipe", "ignore", "pipe"] });
  const fd = proc.stdio[4] as number;
  const { writeSync, closeSync } = await import("node:fs");
  writeSync(fd, plan);
  closeSync(fd);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { out: out + err, code };
}

test.skipIf(abi === 0)("a command launched in the domain reads and writes what is granted and nothing else", async () => {
  const base = tempDir("landlock");
  const open = join(base, "work");
  const closed = join(base, "private");
  mkdirSync(open);
  mkdirSync(closed);
  writeFileSync(join(open, "readme"), "granted text\n");
  writeFileSync(join(closed, "secret"), "closed-marker-51c2\n");
  const r = await launch(`cat ${open}/readme; cat ${closed}/secret; echo made > ${open}/made; echo no > ${closed}/planted`, [{ path: open, access: fsRights(abi) }]);
  expect(r.out).toContain("granted text");
  expect(r.out).not.toContain("closed-marker-51c2");
  expect(readFileSync(join(open, "made"), "utf8")).toBe("made\n");
  expect(existsSync(join(closed, "planted"))).toBe(false);
});

test.skipIf(abi < 4)("with TCP handled a loopback listener hears nothing; without, it does (the control)", async () => {
  let heard = 0;
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void heard++, data() {} } });
  try {
    const dial = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && echo connected || echo refused`;
    const cut = await launch(dial, []);
    expect([cut.out.includes("connected"), heard]).toEqual([false, 0]);
    const open = await launch(dial, [], { net: true });
    expect(open.out).toContain("connected");
    expect(heard).toBe(1);
  } finally {
    server.stop(true);
  }
});

test.skipIf(abi === 0)("the environment of a process outside the domain (shiro's, with the API key) cannot be read through /proc", async () => {
  const outside = Bun.spawn(["sleep", "30"], { env: { PATH: process.env.PATH, SHIRO_LANDLOCK_MARK: "environ-marker-9a77" } });
  try {
    const read = `tr '\\0' '\\n' < /proc/${outside.pid}/environ | grep SHIRO_LANDLOCK_MARK; echo done`;
    const r = await launch(read, []);
    expect(r.out).toContain("done");
    expect(r.out).not.toContain("environ-marker-9a77");
    // The control: the same read outside the domain does show it.
    expect(Bun.spawnSync(["bash", "-c", read]).stdout.toString()).toContain("environ-marker-9a77");
  } finally {
    outside.kill();
  }
});

test("a plan that is not one is a single line and exit 126, and nothing runs", async () => {
  const r = await launch("", [], { plan: '{"abi": "x"}' });
  expect(r.code).toBe(126);
  expect(r.out.trim().split("\n")).toHaveLength(1);
  expect(r.out).toStartWith("shiro: the Landlock sandbox could not start the command:");
});
