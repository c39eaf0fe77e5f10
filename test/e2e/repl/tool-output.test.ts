import { afterAll, beforeAll, expect, test } from "bun:test";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// A command's output streams (dimmed) into the transcript; what follows must sit right under it.
const RUNNER = sequenceModel([{ name: "bash", arguments: { command: "printf 'one\\ntwo\\n'" } }], "ran it");
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    models: { runner: RUNNER, "gpt-5-runner": RUNNER },
  });
});
afterAll(() => server.stop());

test("colour on: no blank line after streamed output, and the outcome is the exit code, not the output's first line again", async () => {
  await using repl = await startRepl({ cwd: tempDir("out"), baseUrl: server.url, args: ["--yolo", "-m", "runner"] });
  expect(repl.output()).toContain("\x1b["); // colour is on, as a person's terminal has it
  const mark = repl.mark();
  await repl.send("go");
  await repl.idle(mark);
  expect(repl.screen()).toContain("● bash printf 'one\\ntwo\\n'\none\ntwo\n  ✓ Exit code: 0 (+2 lines)\n");
});

test("Ctrl-C at an approval question refuses the call without claiming Esc was pressed", async () => {
  await using repl = await startRepl({ cwd: tempDir("out"), baseUrl: server.url, args: ["-m", "runner"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.waitFor("allow?", { since: mark });
  repl.write("\x03");
  await repl.idle(mark);
  const screen = repl.screen();
  expect(screen).toContain("✗ denied: the user declined: they stopped the turn");
  expect(screen).not.toContain("Esc to stop");
});

test("an answer the approval question does not understand is named, and the short choices offered again", async () => {
  await using repl = await startRepl({ cwd: tempDir("out"), baseUrl: server.url, args: ["-m", "runner"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.waitFor("allow?", { since: mark });
  // One key answers: a key that is not one of them is named at once.
  repl.write("m");
  await repl.waitFor(`"m" is not an answer; type y, n (n <reason>) or a (always for printf *): `, { since: mark });
  repl.write("y");
  await repl.idle(mark);
  expect(repl.screen()).toContain("✓ Exit code: 0 (+2 lines)");
});

test("a turn stopped at --max-steps says so in good English and how to go on", async () => {
  await using repl = await startRepl({ cwd: tempDir("out"), baseUrl: server.url, args: ["-m", "runner", "--yolo", "--max-steps", "1"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.idle(mark);
  expect(repl.screen()).toContain("! stopped after 1 model call (--max-steps); send a message to go on\n");
});

test("a reasoning summary's **heading** is shown bold, without the asterisks", async () => {
  await using repl = await startRepl({ cwd: tempDir("out"), baseUrl: server.url, args: ["-m", "gpt-5-runner", "--yolo"] });
  const mark = repl.mark();
  await repl.send("go");
  await repl.idle(mark);
  const screen = repl.screen();
  expect(screen).toContain("› go\nNext step\n\nCalling bash.\n");
  expect(screen).not.toContain("**");
  expect(repl.output()).toMatch(/\x1b\[1m(?:\x1b\[3m)?Next /);
});
