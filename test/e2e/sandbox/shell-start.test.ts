/**
 * How a command's shell starts, through the binary: no login profile runs, so none can print into
 * every result (a `pyenv: cannot rehash`, a profile the sandbox makes unreadable) or reset the PATH
 * shiro was given; and a HOME that does not exist is no reason for the sandbox to fail.
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eachBackend } from "../../support/attack-layout.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });

/** A home whose login profiles print, and hold a toolchain on shiro's PATH; the sandbox may read it all. */
function noisyHome() {
  const base = tempDir("shell-start");
  const home = join(base, "home");
  const shiroHome = join(base, "shiro");
  const root = join(base, "proj");
  for (const dir of [join(home, ".cargo/bin"), shiroHome, root]) mkdirSync(dir, { recursive: true });
  for (const name of [".bash_profile", ".profile"]) writeFileSync(join(home, name), 'echo "pyenv: cannot rehash: $HOME/.pyenv/shims isn\'t writable" >&2\n');
  writeFileSync(join(home, ".cargo/bin/hello-tool"), "#!/bin/sh\necho hello from the toolchain\n");
  chmodSync(join(home, ".cargo/bin/hello-tool"), 0o755);
  const env = { SHIRO_HOME: shiroHome, PATH: `${join(home, ".cargo/bin")}:${process.env.PATH}` };
  return { base, home, shiroHome, root, env };
}

async function expectPlainResults(args: string[], readable: boolean, backend: Record<string, string>) {
  const l = noisyHome();
  try {
    if (readable) writeFileSync(join(l.shiroHome, "config.json"), JSON.stringify({ sandbox: { readable: [l.home] } }));
    const job = await scriptedJob([bash("echo hi"), bash("hello-tool")], { cwd: l.root, home: l.home, args, env: { ...l.env, ...backend } });
    expect(job.outputs.map((o) => o.output)).toEqual(["hi\n\nExit code: 0", "hello from the toolchain\n\nExit code: 0"]);
    expect(job.stderr).toContain("  ✓ hi\n"); // the outcome is the output's first line, no profile's
  } finally {
    rmSync(l.base, { recursive: true, force: true });
  }
}

eachBackend("no login profile heads a result, shown or hidden; the PATH shiro got finds the home's toolchain", async (backend) => {
  await expectPlainResults(["--yolo"], true, backend);
  await expectPlainResults(["--yolo"], false, backend);
});

test("without a sandbox the home's profile does not run either", async () => {
  await expectPlainResults(["--yolo", "--sandbox", "off"], false, {});
});

// Where service accounts point HOME (Debian's nobody); nothing makes it, as bwrap only tries in its own namespace.
const MISSING_HOME = "/nonexistent";

eachBackend("a HOME that does not exist: the command runs, and sees that HOME", async (backend) => {
  if (existsSync(MISSING_HOME)) return; // this machine has one: nothing to try
  const root = tempDir("no-home-proj");
  try {
    const job = await scriptedJob([bash('echo "home is $HOME"')], { cwd: root, args: ["--yolo"], env: { HOME: MISSING_HOME, ...backend } });
    expect(job.outputs.map((o) => o.output)).toEqual([`home is ${MISSING_HOME}\n\nExit code: 0`]);
    expect(job.code).toBe(0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
