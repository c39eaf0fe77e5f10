/**
 * The OS sandbox through the compiled binary: which mode a command runs in, what it can write, the
 * network, and the way out (--sandbox off) and the fallback (no bwrap), each said once per run.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { landlockAbi } from "../../../src/sandbox/landlock-syscalls.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", Bun.which("bwrap") !== null);

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const project = () => {
  const root = tempDir("sbx");
  writeFileSync(join(root, "README"), "hello\n");
  return root;
};
const noticeLines = (stderr: string, words: string) => stderr.split("\n").filter((l) => l.includes(words));

// A loopback service a command may or may not reach.
let service: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  service = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("reached") });
});
afterAll(() => service.stop(true));
const reach = () => bash(`exec 3<>/dev/tcp/127.0.0.1/${service.port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 | tail -1`);

describe.skipIf(!hasBwrap)("with bubblewrap", () => {
  test.concurrent("--yolo: workspace-write — the project is writable; the home, other folders and the system are not", async () => {
    const root = project();
    const home = tempDir("sbx-home");
    const outside = tempDir("sbx-outside");
    const job = await scriptedJob([bash(`echo made > made.txt && echo no > ${outside}/x.txt; echo no > ~/y.txt; echo no > /usr/shiro-y.txt; echo tmp > /tmp/t && cat /tmp/t`)], { cwd: root, home, args: ["--yolo"] });
    expect(job.code).toBe(0);
    expect(readFileSync(join(root, "made.txt"), "utf8")).toBe("made\n");
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    expect(existsSync(join(home, "y.txt"))).toBe(false);
    expect(existsSync("/usr/shiro-y.txt")).toBe(false);
    expect(job.outputs[0]!.output).toContain("Read-only file system");
    expect(job.outputs[0]!.output).toContain("tmp");
  });

  test.concurrent("--sandbox read-only caps even --yolo: nothing is written", async () => {
    const root = project();
    const job = await scriptedJob([bash("echo x > made.txt")], { cwd: root, args: ["--yolo", "--sandbox", "read-only"] });
    expect(existsSync(join(root, "made.txt"))).toBe(false);
    expect(job.outputs[0]!.output).toContain("Read-only file system");
  });

  test.concurrent("a secret file a command creates is kept for the person, hidden from the next command, the model told which, and the run exits 4", async () => {
    const root = project();
    mkdirSync(join(root, "deploy"));
    // Names the guard cannot read in the command's text: only the check after the command sees them.
    const job = await scriptedJob(
      [bash(`python3 -c "open('deploy/.en'+'v.prod','w').write('T=planted-'+'value-9f3'); open('tls.'+'KEY','w')"; echo ok > fine.txt`), bash(`python3 -c "print(open('deploy/.en'+'v.prod').read())"`)],
      { cwd: root, args: ["--yolo"] },
    );
    expect(job.code).toBe(4);
    expect(readFileSync(join(root, "deploy/.env.prod"), "utf8")).toBe("T=planted-value-9f3");
    expect(existsSync(join(root, "tls.KEY"))).toBe(true);
    expect(job.requests.some((r) => r.raw.includes("planted-value-9f3"))).toBe(false);
    expect(readFileSync(join(root, "fine.txt"), "utf8")).toBe("ok\n");
    expect(job.outputs[0]!.output).toContain("deploy/.env.prod, tls.KEY");
  });

  test.concurrent("a secret that was there keeps its bytes, and a link to one is masked as well", async () => {
    const root = project();
    writeFileSync(join(root, ".env"), "TOKEN=original-bytes\n");
    symlinkSync(".env", join(root, "settings"));
    const job = await scriptedJob([bash(`python3 -c "print(open('sett'+'ings').read())"; python3 -c "open('sett'+'ings','w').write('x')" 2>/dev/null; echo rc=$?`)], { cwd: root, args: ["--yolo"] });
    expect(readFileSync(join(root, ".env"), "utf8")).toBe("TOKEN=original-bytes\n");
    expect(job.requests.some((r) => r.raw.includes("original-bytes"))).toBe(false);
    expect(job.outputs[0]!.output).toContain("rc=1");
  });

  test.concurrent("git in a writable project: plain git commits; no command wipes history or plants a hook or config", async () => {
    const root = project();
    const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", ...args], { cwd: root, stdout: "pipe" }).stdout.toString().trim();
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "first");
    const config = readFileSync(join(root, ".git/config"), "utf8");
    const job = await scriptedJob(
      [
        bash("echo more >> README"),
        bash("git add README && git commit -qm second"),
        bash("git -c core.pager=cat commit --allow-empty -qm third"),
        // The hook is written by a program the guard cannot read, so the sandbox is what stops it (a redirection into .git is refused before it runs: runs-later.test.ts).
        bash(`rm -rf .git/objects; python3 -c "open('.git/hooks/pre-commit','w').write('rm -rf ~')"; git config core.hooksPath /tmp/evil; echo rc=$?`),
      ],
      { cwd: root, args: ["--yolo"], env: { GIT_AUTHOR_NAME: "M", GIT_AUTHOR_EMAIL: "m@example.invalid", GIT_COMMITTER_NAME: "M", GIT_COMMITTER_EMAIL: "m@example.invalid" } },
    );
    expect(job.code).toBe(0);
    // A plain git command commits; one whose options run code (`-c`) may not write .git.
    expect(git("log", "--format=%s")).toBe("second\nfirst");
    expect(existsSync(join(root, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(root, ".git/config"), "utf8")).toBe(config);
    expect(git("cat-file", "-t", "HEAD")).toBe("commit");
  });

  test.concurrent("the network is a person's to give: a command an allow rule approves reaches it, --yolo alone does not; cut by --no-network and by config network:false", async () => {
    const open = await scriptedJob([reach()], { cwd: project(), args: ["--yolo", "--allow", "bash"] });
    expect(open.outputs[0]!.output).toStartWith("reached");
    const yolo = await scriptedJob([reach()], { cwd: project(), args: ["--yolo"] });
    expect(yolo.outputs[0]!.output).not.toContain("reached");
    const cut = await scriptedJob([reach()], { cwd: project(), args: ["--yolo", "--allow", "bash", "--no-network"] });
    expect(cut.outputs[0]!.output).not.toContain("reached");
    const home = tempDir("sbx-net-home");
    writeFileSync(join(home, "config.json"), JSON.stringify({ network: false }));
    const configured = await scriptedJob([reach()], { cwd: project(), home, args: ["--yolo", "--allow", "bash"] });
    expect(configured.outputs[0]!.output).not.toContain("reached");
  });
});

test.concurrent("--sandbox off: commands run as they are (a write outside the project lands), and stderr says so once", async () => {
  const outside = tempDir("off-outside");
  const job = await scriptedJob([bash(`echo x > ${outside}/a.txt`), bash(`echo y > ${outside}/b.txt`)], { cwd: project(), args: ["--yolo", "--sandbox", "off"] });
  expect(existsSync(join(outside, "a.txt")) && existsSync(join(outside, "b.txt"))).toBe(true);
  expect(noticeLines(job.stderr, "--sandbox off")).toHaveLength(1);
});

test.concurrent("no bwrap in the system folders: Landlock takes over where the kernel has it, said once; the commands still run, sandboxed", async () => {
  // The system folders searched, none of which holds bwrap (a folder that does not exist).
  const job = await scriptedJob([bash("ls"), bash("ls -a")], { cwd: project(), env: { SHIRO_SYSTEM_DIRS: join(tempDir("nobwrap"), "none") } });
  if (landlockAbi() === 0) {
    expect(noticeLines(job.stderr, "no sandbox for commands")).toEqual([expect.stringContaining("install bubblewrap from the system's packages (apt-get install bubblewrap")]);
    return;
  }
  expect(noticeLines(job.stderr, "commands run under Landlock")).toEqual([expect.stringContaining("as bubblewrap cannot run: bwrap is not installed in")]);
  expect(job.code).toBe(0);
  expect(job.outputs.map((o) => o.output.startsWith("README"))).toEqual([true, false]);
});

test.concurrent("no sandbox at all (sandbox.backend none): said once, commands fall back to the guard (print mode denies them)", async () => {
  const job = await scriptedJob([bash("ls"), bash("ls -a")], { cwd: project(), env: { SHIRO_SANDBOX_BACKEND: "none" } });
  expect(noticeLines(job.stderr, "no sandbox for commands")).toEqual([expect.stringContaining("sandbox.backend is none")]);
  expect(job.code).toBe(4);
  expect(job.outputs.every((o) => o.output.startsWith("Denied:"))).toBe(true);
});

test("a bad --sandbox value or config field is a one-line usage error naming it", async () => {
  const bad = await runShiro(["-p", "--sandbox", "strict", "hi"], { cwd: project() });
  expect([bad.code, bad.stderr.trim()]).toEqual([2, 'shiro: --sandbox must be one of read-only, workspace-write, off, got "strict"']);
  const home = tempDir("sbx-cfg");
  writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: "on" }));
  const cfg = await runShiro(["-p", "hi"], { cwd: project(), home });
  expect(cfg.code).toBe(2);
  expect(cfg.stderr).toContain("sandbox");
});

test("shiro doctor names the sandbox in force and why, the config read, the base URL — and never the key", async () => {
  const home = tempDir("doctor-home");
  writeFileSync(join(home, "config.json"), JSON.stringify({ network: false }));
  const env = { OPENAI_API_KEY: "sk-doctor-must-not-print-this", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
  const r = await runShiro(["doctor"], { cwd: project(), home, env });
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^shiro \d+\.\d+\.\d+ /);
  expect(lines).toContain(Bun.which("bwrap") ? `sandbox: bubblewrap (${Bun.which("bwrap")})` : expect.stringMatching(/^sandbox: none/));
  expect(lines).toContain("  network in the sandbox: cut for every command, approved or not (--no-network, or network: false in config.json)");
  expect(lines).toContain(`config: ${join(home, "config.json")} (read)`);
  expect(lines).toContain("base URL: http://127.0.0.1:9/v1 (from OPENAI_BASE_URL)");
  expect(lines).toContain("API key: set (OPENAI_API_KEY)");
  expect(r.stdout + r.stderr).not.toContain("sk-doctor-must-not-print-this");
  const bare = await runShiro(["doctor"], { cwd: project(), home, env: { SHIRO_SYSTEM_DIRS: "/nonexistent" } });
  expect(bare.stdout).toContain(landlockAbi() ? "as bubblewrap cannot run: bwrap is not installed in /nonexistent" : "sandbox: none: bwrap is not installed in /nonexistent");
});

