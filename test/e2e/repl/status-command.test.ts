import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { reader: sequenceModel([{ name: "read_file", arguments: { path: "packages/api/src/a.ts" } }], "a.ts holds a") } });
});
afterAll(() => server.stop());

test("/status lists the instruction files in force: those read at the start, then a subfolder's once a read touched it", async () => {
  const cwd = tempDir("status-repo");
  const home = tempDir("status-home");
  mkdirSync(join(cwd, ".git"));
  writeFileSync(join(home, "AGENTS.md"), "mine\n");
  for (const [path, text] of Object.entries({ "AGENTS.md": "root\n", "packages/api/AGENTS.md": "api\n", "packages/api/src/a.ts": "a\n", "packages/web/AGENTS.md": "web\n" })) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  try {
    await using repl = await startRepl({ cwd, home, baseUrl: server.url, args: ["-m", "reader"] });
    let mark = repl.mark();
    await repl.send("/status");
    await repl.waitFor(/instructions +~shiro\/AGENTS\.md\s+AGENTS\.md\s/, { since: mark });
    expect(repl.output().slice(mark)).not.toContain("packages/");
    await repl.idle(mark);
    await repl.send("read a.ts");
    await repl.waitFor("a.ts holds a");
    await repl.idle();
    mark = repl.mark();
    await repl.send("/status");
    await repl.waitFor(/instructions +~shiro\/AGENTS\.md\s+AGENTS\.md\s+packages\/api\/AGENTS\.md/, { since: mark });
    expect(repl.output().slice(mark)).not.toContain("packages/web");
    expect(await repl.quit()).toBe(0);
  } finally {
    for (const dir of [cwd, home]) rmSync(dir, { recursive: true, force: true });
  }
});
