/**
 * The Landlock backend (issue 19), forced with SHIRO_SANDBOX_BACKEND=landlock, through the binary and the
 * strict server: the same outcomes as bubblewrap where its ABI allows — a write inside the project lands
 * under --yolo, one outside does not; the read-only default runs `ls` and the model reads it; secret files
 * in the project and the home never reach the model; a loopback listener hears nothing without network.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { landlockAbi } from "../../../src/sandbox/landlock-syscalls.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const abi = landlockAbi();
const bash = (command: string) => ({ name: "bash", arguments: { command } });
const env = { SHIRO_SANDBOX_BACKEND: "landlock" };

function layout() {
  const home = tempDir("ll-home");
  const root = join(home, "code/proj");
  mkdirSync(join(root, "src"), { recursive: true });
  writeFileSync(join(root, "README"), "hello from the project\n");
  writeFileSync(join(root, ".env"), "PROJECT_TOKEN=ll-project-secret-3f9a\n");
  writeFileSync(join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=ll-home-secret-77c1\n");
  writeFileSync(join(home, "notes.txt"), "ll-home-notes-0d2e\n");
  return { home, root };
}
const leaked = (requests: { raw: string }[], ...markers: string[]) => markers.filter((m) => requests.some((r) => r.raw.includes(m)));

let heard = 0;
let listener: { port: number; stop(closeActive?: boolean): void };
beforeAll(() => {
  listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void heard++, data() {} } });
});
afterAll(() => listener.stop(true));

test.skipIf(abi === 0)("--yolo: a write inside the project lands, one into the home or the project's parent does not; the home's and the project's secrets are never sent", async () => {
  const l = layout();
  // Names built at run time: the guard cannot read them, so Landlock is what answers.
  const calls = [bash(`echo made > src/new.txt; echo no > ~/planted.txt; echo no > ../planted.txt; cat "$(printf '.e%s' nv)" ~/"$(printf '.np%s' mrc)" ~/notes.txt; cat README`)];
  const job = await scriptedJob(calls, { cwd: l.root, home: l.home, args: ["--yolo"], env });
  expect(readFileSync(join(l.root, "src/new.txt"), "utf8")).toBe("made\n");
  expect(existsSync(join(l.home, "planted.txt")) || existsSync(join(l.home, "code/planted.txt"))).toBe(false);
  expect(job.outputs[0]!.output).toContain("hello from the project");
  expect(job.outputs[0]!.output).not.toContain("[redacted"); // not even read: Landlock, not the redactor, kept them
  expect(leaked(job.requests, "ll-project-secret-3f9a", "ll-home-secret-77c1", "ll-home-notes-0d2e")).toEqual([]);
});

test.skipIf(abi === 0)("print mode's default: ls runs read-only and its output reaches the model; its write fails", async () => {
  const l = layout();
  const job = await scriptedJob([bash("ls; echo x > made.txt")], { cwd: l.root, home: l.home, env });
  expect(job.outputs[0]!.output).toContain("README");
  expect(existsSync(join(l.root, "made.txt"))).toBe(false);
});

test.skipIf(abi < 4)("without network a loopback listener hears nothing; an approved command's connection reaches it", async () => {
  const l = layout();
  heard = 0;
  const dial = bash(`exec 3<>/dev/tcp/127.0.0.1/${listener.port} && echo connected`);
  await scriptedJob([dial], { cwd: l.root, home: l.home, args: ["--yolo"], env });
  expect(heard).toBe(0);
  await scriptedJob([dial], { cwd: l.root, home: l.home, args: ["--yolo", "--allow", "bash"], env });
  expect(heard).toBe(1);
});

test.skipIf(abi === 0)("shiro doctor names Landlock and what it does not hold", async () => {
  const r = await runShiro(["doctor"], { cwd: tempDir("ll-doctor"), env });
  expect(r.stdout).toContain(`sandbox: Landlock (ABI ${abi})`);
  expect(r.stdout).toContain("not held under Landlock:");
  expect(r.stdout).toContain(`the kernel's Landlock: ABI ${abi} (sandbox.backend landlock)`);
  // With the gate, making a build's folders at the top of the project is no gap any more.
  expect(r.stdout).toContain("an approved command under Landlock: may make and remove anything in the project, its top folder included");
  expect(r.stdout).not.toMatch(/not held under Landlock:.*top folder/);
});

test("a forced backend that cannot run is one line naming why, exit 2, before anything is sent", async () => {
  const r = await runShiro(["-p", "hi"], { cwd: tempDir("ll-forced"), env: { SHIRO_SANDBOX_BACKEND: "bwrap", SHIRO_SYSTEM_DIRS: "/nonexistent" } });
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining("sandbox backend bwrap cannot run here: bwrap is not installed in /nonexistent")]);
});

test.skipIf(abi === 0 || process.getuid?.() !== 0 || !existsSync("/sys/fs/cgroup/pids/cgroup.procs"))("as root, a job that leaves its process group (setsid) still ends with the command: its pids cgroup is emptied", async () => {
  const l = layout();
  const mark = `31.${process.pid}3`;
  const job = await scriptedJob([bash(`setsid sleep ${mark} > /dev/null 2>&1 < /dev/null & echo started`)], { cwd: l.root, home: l.home, args: ["--yolo"], env });
  expect(job.outputs[0]!.output).toContain("started");
  expect(Bun.spawnSync(["pgrep", "-f", `sleep ${mark}`]).stdout.toString().trim()).toBe("");
});
