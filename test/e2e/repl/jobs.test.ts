/**
 * Issue 35 in the REPL: a background job the model started shows on the status line while the
 * prompt waits, `/jobs` lists it, `/jobs kill <id>` ends it (its process is gone, the line goes),
 * and quitting ends any job still running.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { goneTagged, jobServer, processesTagged } from "../../support/job-server.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function replWithJob() {
  const root = tempDir("repl-jobs");
  made.push(root);
  const cwd = join(root, "proj");
  mkdirSync(cwd);
  const server = jobServer(cwd);
  const strict = await startStrictServer({ defaultModel: sequenceModel([{ name: "bash", arguments: { command: server.command, background: true } }], "the server runs") });
  const repl = await startRepl({ cwd, baseUrl: strict.url, args: ["--yolo"], cols: 140 });
  const mark = repl.mark();
  await repl.send("start the server");
  await repl.waitFor("1 background job running · /jobs", { since: mark, timeoutMs: 15_000 });
  return { repl, strict, server };
}

test("the status line shows the running job, /jobs lists it, /jobs kill ends it and the line goes", async () => {
  const { repl, strict, server } = await replWithJob();
  await using _ = repl;
  try {
    expect(repl.screen()).toContain("the server runs");
    let mark = repl.mark();
    await repl.send("/jobs");
    const row = await repl.waitFor(/1\s+running \(pid \d+\)\s+\d+ s\s+bun server\.ts \S+ \d+/, { since: mark });
    expect(row).toContain(server.tag);
    expect(processesTagged(server.tag).length).toBeGreaterThan(0);
    mark = repl.mark();
    await repl.send("/jobs kill 1");
    await repl.waitFor("job 1 killed, with every process it started", { since: mark, timeoutMs: 10_000 });
    await repl.idle(mark);
    expect(repl.screen()).not.toContain("background job running");
    expect(await goneTagged(server.tag)).toEqual([]);
    mark = repl.mark();
    await repl.send("/jobs");
    await repl.waitFor(/1\s+killed\s+\d+ s\s+bun server\.ts/, { since: mark });
    expect(await repl.quit()).toBe(0);
  } finally {
    await strict.stop();
  }
});

test("quitting the REPL ends the job still running", async () => {
  const { repl, strict, server } = await replWithJob();
  await using _ = repl;
  try {
    expect(processesTagged(server.tag).length).toBeGreaterThan(0);
    expect(await repl.quit()).toBe(0);
    expect(await goneTagged(server.tag)).toEqual([]);
  } finally {
    await strict.stop();
  }
});
