/**
 * Landlock for a user other than root (GitHub's `runner`, a hardened service user): no PID namespace and
 * no cgroup, so the launcher caps RLIMIT_NPROC at the user's processes now plus the limit. Run here as
 * `nobody` (setpriv, from root); the layout is the test's own temp folders, opened to that user.
 */
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_PROCS } from "../../../src/sandbox/create-sandbox.ts";
import { landlockAbi } from "../../../src/sandbox/landlock-syscalls.ts";
import { BINARY } from "../../support/binary.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"];
const canRun = landlockAbi() > 0 && process.getuid?.() === 0 && existsSync("/usr/bin/setpriv");

test.skipIf(!canRun)(`as another user than root under Landlock, a burst of ${MAX_PROCS + 500} processes stops at the limit and the next command runs`, async () => {
  // Only this run's own folders are opened to `nobody`: the run folder to pass through, these two whole.
  chmodSync(tmpdir(), 0o711);
  const root = tempDir("ll-user-proj");
  const home = tempDir("ll-user-home");
  for (const dir of [root, home]) chmodSync(dir, 0o777);
  writeFileSync(join(root, "README"), "hello\n");
  // The binary too, where `nobody` reaches it: the checkout may sit under a 0700 folder (what `mktemp -d` makes).
  const bin = tempDir("ll-user-bin");
  chmodSync(bin, 0o755);
  copyFileSync(BINARY, join(bin, "shiro"));
  chmodSync(join(bin, "shiro"), 0o755);
  // The system's python: a toolchain in root's home (pyenv's shims) is no more `nobody`'s than the checkout.
  const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const mark = `32.${process.pid}1`;
  const burst = `${python} -c "
import subprocess
n = 0
try:
    for i in range(${MAX_PROCS + 500}):
        subprocess.Popen(['sleep', '${mark}']); n += 1
except OSError:
    pass
print('running=%d' % n)"`;
  const job = await scriptedJob([{ name: "bash", arguments: { command: burst } }, { name: "bash", arguments: { command: "cat README" } }], {
    cwd: root,
    home,
    args: ["--yolo"],
    env: { SHIRO_SANDBOX_BACKEND: "landlock" },
    wrap: AS_NOBODY,
    binary: join(bin, "shiro"),
  });
  const running = Number(/running=(\d+)/.exec(job.outputs[0]?.output ?? "")?.[1] ?? "NaN");
  Bun.spawnSync(["pkill", "-f", `sleep ${mark}`]);
  expect(running).toBeLessThanOrEqual(MAX_PROCS);
  expect(running).toBeGreaterThan(100);
  expect(job.outputs[1]!.output).toContain("hello");
}, 60_000);
