/**
 * Print mode without --yolo: nobody can answer a question, so instead of denying every command, shiro
 * runs it in a read-only sandbox. What a command reads reaches the model; nothing it writes lands.
 * (Until the sandbox exists print mode denies even `ls`, and this test fails.)
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bwrapMissing } from "../../support/attack-layout.ts";
import { git, gitProject, secretProject } from "../../support/guard-projects.ts";
import { FINAL, scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });

describe("print mode without --yolo", () => {
  test.skipIf(bwrapMissing)("ls and git status reach the model; echo x > new.txt and >> tracked.txt change nothing; no question (sandbox: needs bwrap)", async () => {
    const p = secretProject({ "tracked.txt": "committed\n" });
    gitProject(p);
    writeFileSync(join(p.root, "notes-untracked.txt"), "draft\n");
    const trackedMtime = statSync(join(p.root, "tracked.txt")).mtimeMs;
    const calls = [bash("ls"), bash("git status"), bash("echo x > new.txt"), bash("echo x >> tracked.txt")];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home });

    // Each call ran and its output is what the next request carried to the model.
    expect(job.outputs.map((o) => [o.arguments, o.request])).toEqual(calls.map((c, k) => [c.arguments, k + 1]));
    const [ls, status] = job.outputs.map((o) => o.output);
    expect(ls).toContain("template.txt");
    expect(ls).toContain("notes-untracked.txt");
    expect(status).toContain("On branch main");
    expect(status).toContain("notes-untracked.txt");
    expect(job.requests[1]!.raw).toContain("notes-untracked.txt");
    // The writes did not land, in the project or anywhere.
    expect(existsSync(join(p.root, "new.txt"))).toBe(false);
    expect(readFileSync(join(p.root, "tracked.txt"), "utf8")).toBe("committed\n");
    expect(statSync(join(p.root, "tracked.txt")).mtimeMs).toBe(trackedMtime);
    expect(git(p.root, "status", "--porcelain")).toBe("?? notes-untracked.txt");
    // It ran to its answer without waiting on anyone (print mode cannot ask). Whether a failed write
    // counts as a denial (exit 4) is the sandbox's call; either way the answer is printed.
    expect(job.stdout).toBe(FINAL + "\n");
    expect([0, 4]).toContain(job.code);
  });
});
