/** A deny rule on a path, for every tool, reaches commands too: the sandbox masks what read_file may not read. */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", existsSync("/usr/bin/bwrap"));

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const MARK = `deny-path-marker-${process.pid}`;

test.skipIf(!hasBwrap)("--deny '*:data/private/**' hides those files from a command that names them only at run time; the rest of data/ reads", async () => {
  const root = tempDir("deny-paths");
  mkdirSync(join(root, "data/private"), { recursive: true });
  writeFileSync(join(root, "data/private/customers.csv"), `name,card\nann,${MARK}\n`);
  writeFileSync(join(root, "data/public.csv"), "name\nbob\n");
  // The name is built when the command runs, so no rule can read it in the command's text.
  const sneaky = `f=$(printf 'data/pri%s/customers.csv' vate); cat "$f"; grep -r card data || true; tar -cf - data 2>/dev/null | tar -xOf - 2>/dev/null`;
  const job = await scriptedJob([bash("cat data/public.csv"), bash(sneaky)], { cwd: root, args: ["--yolo", "--deny", "*:data/private/**"] });
  expect(job.outputs[0]!.output).toContain("bob");
  expect(job.requests.some((r) => r.raw.includes(MARK))).toBe(false);
  expect(job.stdout).not.toContain(MARK);
});
