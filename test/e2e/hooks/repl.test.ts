/**
 * Hooks in the REPL: `notify` commands run when an approval waits (Notification) and when the model
 * stops (Stop), told what happened on stdin; a PreToolUse hook's "ask" brings a call the rules and
 * --yolo would allow to the person, who can still say no.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { waitUntil } from "../../support/wait-until.ts";

let server: StrictServer;
const made: string[] = [];
beforeAll(async () => {
  server = await startStrictServer({ models: { stepper: sequenceModel([{ name: "bash", arguments: { command: "touch made.txt" } }], "all done") } });
});
afterAll(async () => {
  await server.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function dirs(config: (home: string) => object) {
  const cwd = tempDir("hooks-repl");
  const home = tempDir("hooks-repl-home");
  made.push(cwd, home);
  writeFileSync(join(home, "config.json"), JSON.stringify(config(home)));
  return { cwd, home };
}

test("notify runs when an approval waits (told which call) and when the model stops", async () => {
  const { cwd, home } = dirs((home) => ({ notify: [`cat >> ${home}/notified.jsonl`] }));
  await using repl = await startRepl({ cwd, baseUrl: server.url, home, args: ["-m", "stepper", "--sandbox", "off"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.waitFor("allow? ", { since: mark });
  // Whole lines only: the hook may be halfway through writing its line when the test reads.
  const notified = () => (existsSync(join(home, "notified.jsonl")) ? readFileSync(join(home, "notified.jsonl"), "utf8").split("\n").slice(0, -1).map((l) => JSON.parse(l)) : []);
  await waitUntil(() => notified().length === 1, "the Notification hook's line");
  expect(notified()[0]).toMatchObject({ hook_event_name: "Notification", message: "shiro needs your approval: bash: touch made.txt", cwd });
  await repl.send("y");
  await repl.waitFor("all done", { since: mark });
  await repl.idle(mark);
  await waitUntil(() => notified().length === 2, "the Stop hook's line");
  expect(notified()[1]).toMatchObject({ hook_event_name: "Stop", stop_hook_active: false });
  expect(existsSync(join(cwd, "made.txt"))).toBe(true);
});

test("a hook's ask reaches the person even under --yolo; a no keeps the call from running", async () => {
  const ask = `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "touching files needs a look"}}'`;
  const { cwd, home } = dirs(() => ({ hooks: { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: ask }] }] } }));
  await using repl = await startRepl({ cwd, baseUrl: server.url, home, args: ["-m", "stepper", "--sandbox", "off", "--yolo"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.waitFor("bash: touch made.txt (a hook asks: touching files needs a look)", { since: mark });
  await repl.send("n");
  await repl.waitFor("all done", { since: mark });
  expect(existsSync(join(cwd, "made.txt"))).toBe(false);
});
