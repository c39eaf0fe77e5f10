/**
 * Permission rules from config.json through the compiled binary: allow lets a call run in print mode,
 * deny beats --yolo, an unknown decision is a usage error, outside paths ask (a denial in print mode),
 * and no rule reaches the guard.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { read, secretProject } from "../../support/guard-projects.ts";
import { GUARD_SECRET } from "../../support/expect-refused.ts";
import { runShiro } from "../../support/run-shiro.ts";
import { FINAL, scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", Bun.which("bwrap") !== null);

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const write = (path: string, content = "x\n"): PlannedCall => ({ name: "write_file", arguments: { path, content } });
const withConfig = (home: string, config: object) => writeFileSync(join(home, "config.json"), JSON.stringify(config));
const ECHO_ALLOWED = { decision: "allow", tool: "bash", pattern: "echo *" };

describe("permission rules in config.json, end to end", () => {
  test("an allow rule lets bash run in print mode without --yolo (a write_file rule the file it writes): output reaches the model, exit 0", async () => {
    const p = secretProject();
    withConfig(p.home, { permissions: [ECHO_ALLOWED, { decision: "allow", tool: "write_file", pattern: "made-by-*.txt" }] });
    const job = await scriptedJob([bash("echo allowed by a rule > made-by-echo.txt"), bash("echo hello from bash")], { cwd: p.root, home: p.home });
    expect([job.code, job.stdout]).toEqual([0, FINAL + "\n"]);
    expect(job.outputs.map((o) => o.output)).toEqual(["(no output)\n\nExit code: 0", "hello from bash\n\nExit code: 0"]);
    expect(read(join(p.root, "made-by-echo.txt"))).toBe("allowed by a rule\n");
  });

  test("every command of a chain must be allowed: without a sandbox (--sandbox off) `echo a && touch x` is denied naming `touch x` (exit 4)", async () => {
    const p = secretProject();
    withConfig(p.home, { permissions: [ECHO_ALLOWED] });
    const job = await scriptedJob([bash("echo a && touch touched.txt")], { cwd: p.root, home: p.home, args: ["--sandbox", "off"] });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    expect(job.outputs[0]!.output).toBe(
      "Denied: bash: touch touched.txt needs approval, and this run cannot ask (print mode). Allow it with a permission rule (--allow, or config.json) or run with --yolo.",
    );
    expect(existsSync(join(p.root, "touched.txt"))).toBe(false);
  });

  test.skipIf(!hasBwrap)("with the sandbox, the same chain runs read-only instead: its echo works, its write fails inside, nothing is written", async () => {
    const p = secretProject();
    withConfig(p.home, { permissions: [ECHO_ALLOWED] });
    const job = await scriptedJob([bash("echo a && touch touched.txt")], { cwd: p.root, home: p.home });
    expect([job.code, job.stdout]).toEqual([0, FINAL + "\n"]);
    expect(job.outputs[0]!.output).toStartWith("a\ntouch: cannot touch 'touched.txt': Read-only file system\n\nExit code: 1");
    expect(existsSync(join(p.root, "touched.txt"))).toBe(false);
  });

  test("a deny rule beats --yolo (while --yolo still allows what is only asked)", async () => {
    const p = secretProject();
    withConfig(p.home, {
      permissions: [
        { decision: "deny", tool: "write_file", pattern: "notes/**" },
        { decision: "deny", tool: "bash", pattern: "git *" },
      ],
    });
    const calls = [write("notes/a.md"), bash("git init -q"), write("other.md")];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"] });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    expect(job.outputs.map((o) => o.output)).toEqual([
      "Denied: permission rule deny write_file notes/** (config.json).",
      "Denied: permission rule deny bash git * (config.json).",
      "Created other.md (1 line)",
    ]);
    expect(existsSync(join(p.root, "notes/a.md"))).toBe(false);
    expect(existsSync(join(p.root, ".git"))).toBe(false);
    expect(read(join(p.root, "other.md"))).toBe("x\n");
  });

  test("allow-everything rules do not reach the guard: secret writes are still refused (exit 4)", async () => {
    const p = secretProject({ ".env": "TOKEN=hunter2\n" });
    withConfig(p.home, { permissions: [{ decision: "allow", pattern: "**" }, { decision: "allow", tool: "bash", pattern: "*" }] });
    const calls = [write(".env.local"), bash("echo x >> .env"), { name: "edit_file", arguments: { path: ".env", old_string: "hunter2", new_string: "x" } }];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"] });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    for (const o of job.outputs) expect(o.output).toMatch(GUARD_SECRET);
    expect(existsSync(join(p.root, ".env.local"))).toBe(false);
    expect(read(join(p.root, ".env"))).toBe("TOKEN=hunter2\n");
  });

  test("without a rule, even reading a secret is denied under --yolo; its content never reaches the wire", async () => {
    const p = secretProject({ ".env": "TOKEN=hunter2\n" });
    const job = await scriptedJob([bash("cat .env"), { name: "read_file", arguments: { path: ".ENV" } }], { cwd: p.root, home: p.home, args: ["--yolo"] });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    const why = "(default: secret file) — secret files are denied to every tool by default; allow one with a permission rule (--allow, or config.json).";
    expect(job.outputs.map((o) => o.output)).toEqual([`Denied: permission rule deny .env ${why}`, `Denied: permission rule deny .ENV ${why}`]);
    expect(job.requests.some((r) => r.raw.includes("hunter2"))).toBe(false);
  });

  test("an unknown decision word in config.json: exit 2, one line naming the word and the file", async () => {
    const p = secretProject();
    withConfig(p.home, { permissions: [ECHO_ALLOWED, { decision: "permit", tool: "bash", pattern: "ls" }] });
    const r = await runShiro(["-p", "--yolo", "hi"], { cwd: p.root, home: p.home, env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`shiro: permissions[1].decision in ${join(p.home, "config.json")}: unknown decision "permit": use "allow", "ask" or "deny"\n`);
  });

  test("a path outside the project asks, so print mode denies it (exit 4) and the file is never read", async () => {
    const p = secretProject();
    writeFileSync(join(p.outer, "outside.txt"), "private notes outside the project\n");
    const calls: PlannedCall[] = [
      { name: "read_file", arguments: { path: "../outside.txt" } },
      { name: "read_file", arguments: { path: join(p.outer, "outside.txt") } },
      { name: "read_file", arguments: { path: "template.txt" } },
    ];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    const outside = join(p.outer, "outside.txt");
    const denial = `Denied: read_file ${outside} (outside the project) needs approval, and this run cannot ask (print mode). Only a person opens what lies outside the project to the file tools, --yolo does not: an allow rule naming it (--allow 'read_file:~/notes/**'), --add-dir, or sandbox.readable in config.json.`;
    expect(job.outputs.slice(0, 2).map((o) => o.output)).toEqual([denial, denial]);
    expect(job.outputs[2]!.output).toContain("KEY=from-template"); // reads inside the project need no rule
    expect(job.requests.some((r) => r.raw.includes("private notes"))).toBe(false);
  });
});
