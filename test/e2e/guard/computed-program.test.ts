/**
 * Issue 18: a deny rule naming a program cannot be dodged by computing the program. Under
 * `shiro -p --yolo --deny 'bash:rm *'`, every command whose program is only known when it runs leaves
 * its file in place; without a deny rule naming a program, --yolo runs such a command as before.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const COMPUTED = ["$(echo rm) v1", "`echo rm` v2", "R=rm; $R v3", "R=rm; ${R} v4", 'eval "$(echo rm) v5"', "X='rm v6'; bash -c \"$X\"", "/bin/r[m] v7", "{rm,v8}", "function r { rm $1; }; r v9", "hash -p /bin/rm r; r v10", "shopt -s expand_aliases\nalias r=rm\nr v11"];
const victims = COMPUTED.map((_, i) => `v${i + 1}`);

function project(): string {
  const root = tempDir("computed");
  for (const v of victims) writeFileSync(join(root, v), "keep\n");
  return root;
}

describe("a computed program meets the deny rules naming programs", () => {
  test("under --yolo --deny 'bash:rm *': none of them deletes its file; a plain command still runs", async () => {
    const root = project();
    const calls = [...COMPUTED.map(bash), bash("ls")];
    const job = await scriptedJob(calls, { cwd: root, args: ["--yolo", "--deny", "bash:rm *", "--max-steps", String(calls.length + 3)] });
    expect(victims.filter((v) => !existsSync(join(root, v)))).toEqual([]);
    expect(outputOf(job, "bash", (a) => a.command === "ls")).toContain("v1");
  });

  test("control: with no deny rule naming a program, --yolo runs them as before", async () => {
    const root = project();
    const job = await scriptedJob(COMPUTED.map(bash), { cwd: root, args: ["--yolo", "--max-steps", String(COMPUTED.length + 3)] });
    expect(job.outputs).toHaveLength(COMPUTED.length);
    expect(victims.filter((v) => existsSync(join(root, v)))).toEqual([]);
  });
});
