/**
 * The rules do exactly what they say, through the compiled binary: an allow rule for a command does not
 * lift a write it does not name (a redirection, `--output=`), nor code git runs from a `-c` setting; a
 * deny rule stops the program however it is started. Each test asserts the files on disk.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, gitProject, read, secretProject } from "../../support/guard-projects.ts";
import { FINAL, scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { toolHere } from "../../support/tool-here.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const withConfig = (home: string, permissions: object[]) => writeFileSync(join(home, "config.json"), JSON.stringify({ permissions }));
const allow = (pattern: string, tool = "bash") => ({ decision: "allow", tool, pattern });
const HAS_BWRAP = toolHere("bwrap", Bun.which("bwrap") !== null);
const needsApproval = (what: string) => `Denied: bash: ${what} needs approval, and this run cannot ask (print mode). Allow it with a permission rule (--allow, or config.json) or run with --yolo.`;

describe("an allow rule does not lift the writes a command makes beside it", () => {
  // A plain file of the home: `~/.bashrc` would be refused outright, as code that runs later (guard-reach.test.ts).
  const original = { notes: "# the user's own notes\n", source: "export const x = 1;\n" };
  const project = () => {
    const p = secretProject({ "src/x.ts": original.source });
    writeFileSync(join(p.home, "notes.txt"), original.notes);
    withConfig(p.home, [allow("git *"), allow("ls *")]);
    return p;
  };
  const calls = [bash("git --version > ~/notes.txt"), bash("ls > src/x.ts")];

  test("without a sandbox: both writes are denied as write_file calls would be, naming the file (exit 4)", async () => {
    const p = project();
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--sandbox", "off"] });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    expect(job.outputs.map((o) => o.output)).toEqual([needsApproval(`write_file ${join(p.home, "notes.txt")} (outside the project)`), needsApproval("write_file src/x.ts")]);
    expect(read(join(p.home, "notes.txt"))).toBe(original.notes);
    expect(read(join(p.root, "src/x.ts"))).toBe(original.source);
  });

  test.skipIf(!HAS_BWRAP)("with the sandbox: the commands run read-only, their writes fail and the model reads why", async () => {
    const p = project();
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home });
    expect([job.code, job.stdout]).toEqual([0, FINAL + "\n"]);
    // The home is hidden (an empty private folder: no such file); the project is there, read-only.
    expect(job.outputs[0]!.output).toContain("No such file or directory");
    expect(job.outputs[1]!.output).toContain("Read-only file system");
    expect(read(join(p.home, "notes.txt"))).toBe(original.notes);
    expect(read(join(p.root, "src/x.ts"))).toBe(original.source);
  });

  test("`git diff --output=x.patch` is a write of x.patch: denied under `git *` alone, written once write_file allows *.patch", async () => {
    const p = secretProject({ "notes.txt": "one\n" });
    gitProject(p);
    writeFileSync(join(p.root, "notes.txt"), "two\n");
    withConfig(p.home, [allow("git *")]);
    const denied = await scriptedJob([bash("git diff --output=x.patch")], { cwd: p.root, home: p.home, args: ["--sandbox", "off"] });
    expect(denied.outputs.map((o) => o.output)).toEqual([needsApproval("write_file x.patch")]);
    expect(existsSync(join(p.root, "x.patch"))).toBe(false);

    withConfig(p.home, [allow("git *"), allow("*.patch", "write_file")]);
    const allowed = await scriptedJob([bash("git diff --output=x.patch")], { cwd: p.root, home: p.home, args: ["--sandbox", "off"] });
    expect([allowed.code, allowed.outputs.map((o) => o.output)]).toEqual([0, ["(no output)\n\nExit code: 0"]]);
    expect(read(join(p.root, "x.patch"))).toContain("+two");
  });
});

describe("git settings that run code are not covered by `git *`", () => {
  // The pager runs only on a terminal, which a command never has; the fsmonitor hook and an external diff run anyway.
  const calls = [bash("git -c core.fsmonitor='touch pwned-by-fsmonitor' status"), bash("git -c diff.external='touch pwned-by-diff' diff")];
  const project = () => {
    const p = secretProject({ "notes.txt": "one\n" });
    gitProject(p);
    writeFileSync(join(p.root, "notes.txt"), "two\n");
    withConfig(p.home, [allow("git *")]);
    return p;
  };

  test("without a sandbox: denied, naming the command git would run (exit 4)", async () => {
    const p = project();
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--sandbox", "off"] });
    expect([job.code, job.outputs.map((o) => o.output)]).toEqual([4, [needsApproval("touch pwned-by-fsmonitor"), needsApproval("touch pwned-by-diff")]]);
    expect(existsSync(join(p.root, "pwned-by-fsmonitor"))).toBe(false);
    expect(existsSync(join(p.root, "pwned-by-diff"))).toBe(false);
  });

  test.skipIf(!HAS_BWRAP)("with the sandbox: they run read-only, so what git runs cannot write the project", async () => {
    const p = project();
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home });
    expect(job.code).toBe(0);
    expect(job.outputs).toHaveLength(2);
    expect(existsSync(join(p.root, "pwned-by-fsmonitor"))).toBe(false);
    expect(existsSync(join(p.root, "pwned-by-diff"))).toBe(false);
  });
});

describe("a deny rule stops the program however it is started, even under --yolo", () => {
  test("`deny rm *`: /bin/rm, command, env, xargs, nohup, timeout, sudo, unlink and find -delete all leave the file", async () => {
    const p = secretProject({ a: "keep me\n", list: "a\n" });
    withConfig(p.home, [{ decision: "deny", tool: "bash", pattern: "rm *" }]);
    const commands = ["/bin/rm a", "command rm a", "env rm a", "env -i FOO=1 rm a", "xargs rm < list", "nohup rm a", "timeout 5 rm a", "sudo rm a", "unlink a", "find . -name a -delete"];
    const job = await scriptedJob(commands.map(bash), { cwd: p.root, home: p.home, args: ["--yolo", "--sandbox", "off"] });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    expect(job.outputs.map((o) => o.output)).toEqual(commands.map(() => "Denied: permission rule deny bash rm * (config.json)."));
    expect(read(join(p.root, "a"))).toBe("keep me\n");
  });

  test("`deny git push *` stops `git -C . push`: the remote's ref is unchanged", async () => {
    const p = secretProject();
    const { remote, head } = gitProject(p);
    writeFileSync(join(p.root, "more.txt"), "more\n");
    git(p.root, "add", "-A");
    git(p.root, "commit", "-q", "-m", "second");
    withConfig(p.home, [allow("git *"), { decision: "deny", tool: "bash", pattern: "git push *" }]);
    const job = await scriptedJob([bash("git -C . push origin main"), bash("git --no-pager -c push.default=current push")], { cwd: p.root, home: p.home, args: ["--yolo", "--sandbox", "off"] });
    expect(job.outputs.map((o) => o.output)).toEqual(["Denied: permission rule deny bash git push * (config.json).", "Denied: permission rule deny bash git push * (config.json)."]);
    expect(git(remote, "rev-parse", "main")).toBe(head);
  });
});
