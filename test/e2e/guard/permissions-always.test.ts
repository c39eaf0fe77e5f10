/**
 * "always" in the REPL offers what is narrow and safe: the program and its subcommand, no loop keywords,
 * the exact command for a destructive one — and what it records lets only that through later.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const STEPS = [bash("for i in 1 2; do echo $i; done && git log -1"), bash("git log -2"), bash("rm b.txt")];
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { stepper: sequenceModel(STEPS, "all done") } });
});
afterAll(() => server.stop());

test("always for a loop offers `echo *, git log *`; a later `git log -2` runs unasked, while `rm b.txt` is asked about as exactly itself", async () => {
  const cwd = tempDir("always");
  writeFileSync(join(cwd, "b.txt"), "keep\n");
  await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "stepper"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.waitFor("[a]lways for echo *, git log *: ", { since: mark });
  await repl.send("a");
  await repl.waitFor("[a]lways for rm b.txt: ", { since: mark });
  await repl.send("n");
  await repl.idle(mark);
  const screen = repl.screen();
  expect(screen.match(/allow\? /g)).toHaveLength(2); // none for `git log -2`
  expect(screen).toContain("● bash git log -2");
  expect(existsSync(join(cwd, "b.txt"))).toBe(true);
});
