/**
 * Issue 18: `--yolo` is autonomy inside the box, not a key to the home. Under `shiro -p --yolo` the file
 * tools reach the project and the added folders; the home's dotfiles, a sibling project, the parent
 * and `$SHIRO_HOME` stay out of every request and session file, and nothing there changes. Each test
 * has its control: the same run reads and writes the project, and what a rule or `--add-dir` opens.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { layoutEnv } from "../../support/attack-layout.ts";
import { changedOutside, leaks, OLD_SESSION, outsideFiles, reachLayout, type ReachLayout } from "../../support/reach-layout.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const call = (name: string, args: Record<string, unknown>): PlannedCall => ({ name, arguments: args });
const run = (l: ReachLayout, calls: PlannedCall[], args: string[] = []) =>
  scriptedJob(calls, { cwd: l.root, home: l.home, args: ["--yolo", "--max-steps", String(calls.length + 3), ...args], env: layoutEnv(l) });

describe("file tools under --yolo reach the project and the added folders only", () => {
  test("reads and searches of the home, a sibling, the parent and $SHIRO_HOME give nothing away; the project is read", async () => {
    const l = reachLayout("reach-read");
    symlinkSync(l.home, join(l.root, "homelink")); // a link in the project, into the home
    symlinkSync(join(l.home, ".npmrc"), join(l.root, "npmrc"));
    const before = outsideFiles(l);
    const calls = [
      call("read_file", { path: "src/app.ts" }), // control
      call("read_file", { path: join(l.home, ".bashrc") }),
      call("read_file", { path: "~/.npmrc" }),
      call("grep", { pattern: "TOKEN|authToken|leak", path: l.home }),
      call("grep", { pattern: "leak", path: "~" }),
      call("grep", { pattern: "leak|KEY", path: ".." }),
      call("grep", { pattern: "leak", path: "/" , glob: "*.md" }),
      call("read_file", { path: "../plan.md" }),
      call("read_file", { path: "../sib/README.md" }),
      call("glob", { pattern: "**/*", path: l.outer }),
      call("list_dir", { path: l.home, depth: 3 }),
      call("grep", { pattern: "leak", path: l.shiroHome }),
      call("read_file", { path: join(l.base, OLD_SESSION) }),
      call("read_file", { path: "homelink/.bashrc" }),
      call("read_file", { path: "npmrc" }),
      call("grep", { pattern: "leak", path: "homelink" }),
      call("grep", { pattern: "leak|authToken", path: ".", glob: "*" }),
      call("glob", { pattern: "**/*", path: "homelink" }),
      call("grep", { pattern: "project says", path: "." }), // control: a search of the project
      call("read_file", { path: join(l.tmp, "system-like.txt") }), // control: outside the home, --yolo still reads
    ];
    const job = await run(l, calls);
    expect(leaks(l, job.requests.map((r) => r.raw))).toEqual([]);
    expect(changedOutside(l, before)).toEqual([]);
    expect(outputOf(job, "read_file", (a) => a.path === "src/app.ts")).toContain(l.projectText.trim());
    expect(outputOf(job, "grep", (a) => a.path === "." && a.pattern === "project says")).toContain("src/app.ts");
    expect(outputOf(job, "read_file", (a) => a.path.endsWith("system-like.txt"))).toContain("a shared file outside the home");
  });

  test("writes outside the project change nothing there; a write inside the project lands", async () => {
    const l = reachLayout("reach-write");
    const before = outsideFiles(l);
    const patch = ["*** Begin Patch", "*** Add File: ../sib/planted.txt", "+x", "*** Update File: ../plan.md", "@@", "-parent plan", "+changed plan", "*** End Patch"].join("\n");
    const calls = [
      call("write_file", { path: "~/notes/todo.md", content: "overwritten\n" }),
      call("edit_file", { path: "../sib/README.md", old_string: "sibling", new_string: "changed" }),
      call("write_file", { path: join(l.outer, "new.txt"), content: "x\n" }),
      call("apply_patch", { patch }),
      call("write_file", { path: join(l.tmp, "out.txt"), content: "x\n" }),
      call("write_file", { path: "src/new.ts", content: "export {};\n" }), // control
    ];
    const job = await run(l, calls);
    expect(changedOutside(l, before)).toEqual([]);
    expect(readFileSync(join(l.root, "src/new.ts"), "utf8")).toBe("export {};\n");
    expect(job.requests.length).toBeGreaterThan(calls.length);
  });

  test("a person opens a place: a rule naming it, --add-dir; the rest stays closed", async () => {
    const l = reachLayout("reach-opened");
    const calls = [
      call("read_file", { path: "~/notes/todo.md" }),
      call("write_file", { path: "~/notes/done.md", content: "done\n" }),
      call("read_file", { path: "../plan.md" }),
      call("read_file", { path: "~/.bashrc" }),
    ];
    const job = await run(l, calls, ["--allow", `read_file:${l.outer}/plan.md`, "--add-dir", join(l.home, "notes")]);
    const given = leaks(l, job.requests.map((r) => r.raw));
    expect(given.sort()).toEqual(["home/notes/todo.md in a request", "home/notes/todo.md in a session file", "outer/plan.md in a request", "outer/plan.md in a session file"]);
    expect(readFileSync(join(l.home, "notes/done.md"), "utf8")).toBe("done\n");
  });

  test("started in the home: a search of the project skips $SHIRO_HOME in it, and a read of it is a person's; the rest is the project", async () => {
    const l = reachLayout("reach-in-home");
    const shiroHome = join(l.home, ".shiro-neko");
    const session = `leakinner${Date.now().toString(16)}`;
    mkdirSync(join(shiroHome, "sessions"), { recursive: true });
    writeFileSync(join(shiroHome, "sessions/old.jsonl"), `${JSON.stringify({ text: session })}\n`);
    writeFileSync(join(shiroHome, "config.json"), "{}\n");
    const calls = [
      call("grep", { pattern: "leak", path: "." }),
      call("read_file", { path: ".shiro-neko/sessions/old.jsonl" }),
      call("glob", { pattern: "**/*.jsonl" }),
      call("write_file", { path: ".shiro-neko/config.json", content: '{"permissions":[{"decision":"allow","pattern":"**"}]}\n' }),
    ];
    const job = await scriptedJob(calls, { cwd: l.home, home: l.home, args: ["--yolo"], env: { ...layoutEnv(l), SHIRO_HOME: shiroHome } });
    expect(job.requests.some((r) => r.raw.includes(session))).toBe(false);
    expect(readFileSync(join(shiroHome, "config.json"), "utf8")).toBe("{}\n");
    expect(outputOf(job, "grep", (a) => a.path === ".")).toContain("notes/todo.md"); // control: the home is the project here
  });
});
