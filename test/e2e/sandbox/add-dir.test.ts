/** Folders a person adds beside the project: --add-dir (written by approved commands), sandbox.readable (read only); a bad one is a usage error. */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const hasBwrap = toolHere("bwrap", existsSync("/usr/bin/bwrap"));

test.skipIf(!hasBwrap)("--add-dir: an approved command writes the added folder (hidden otherwise); sandbox.readable is seen, not written", async () => {
  const root = tempDir("adddir-proj");
  const out = tempDir("adddir-out");
  const shared = tempDir("adddir-shared");
  writeFileSync(join(shared, "doc.md"), "shared doc\n");
  const home = tempDir("adddir-home");
  writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: { readable: [shared] } }));
  const calls = [bash(`echo built > ${out}/artifact.txt; cat ${shared}/doc.md; echo no > ${shared}/x.txt`)];
  const added = await scriptedJob(calls, { cwd: root, home, args: ["--yolo", "--add-dir", out] });
  expect(readFileSync(join(out, "artifact.txt"), "utf8")).toBe("built\n");
  expect(added.outputs[0]!.output).toContain("shared doc");
  expect(existsSync(join(shared, "x.txt"))).toBe(false);

  // The control: without --add-dir the same folder is out of sight, and nothing lands there.
  const out2 = tempDir("adddir-out2");
  await scriptedJob([bash(`echo built > ${out2}/artifact.txt`)], { cwd: root, args: ["--yolo"] });
  expect(existsSync(join(out2, "artifact.txt"))).toBe(false);
});

test("a folder that does not exist in --add-dir or sandbox.writable is one line naming it, exit 2, before anything is sent", async () => {
  const root = tempDir("adddir-bad");
  const flag = await runShiro(["-p", "--add-dir", join(root, "missing"), "hi"], { cwd: root });
  expect([flag.code, flag.stderr.trim().split("\n").length]).toEqual([2, 1]);
  expect(flag.stderr).toContain(`--add-dir: ${join(root, "missing")} does not exist`);
  const home = tempDir("adddir-bad-home");
  writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: { writeable: [root] } }));
  const typo = await runShiro(["-p", "hi"], { cwd: root, home });
  expect([typo.code, typo.stderr.trim().split("\n").length]).toEqual([2, 1]);
  expect(typo.stderr).toContain('did you mean "writable"?');
});
