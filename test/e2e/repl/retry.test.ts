import { afterAll, beforeAll, expect, test } from "bun:test";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// A stream cut mid-answer is asked again once; the REPL must not print the answer twice.
const SENTENCE = "The quick brown fox jumps over the lazy dog and then rests for a while.";
let server: StrictServer;
let calls = 0;
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "same-twice": () => ({ text: SENTENCE }),
      "changes-mind": () => ({ text: ++calls === 1 ? SENTENCE : "A different answer entirely." }),
    },
  });
});
afterAll(() => server.stop());

const count = (text: string, part: string) => text.split(part).length - 1;

test("a retry that repeats the cut-off answer continues it seamlessly: shown once, no notice", async () => {
  await using repl = await startRepl({ cwd: tempDir("retry"), baseUrl: server.url, args: ["-m", "same-twice"] });
  const before = server.requests.length;
  server.inject({ cut: 8 });
  const mark = repl.mark();
  await repl.send("hello");
  await repl.idle(mark);
  expect(server.requests.length - before).toBe(2);
  const screen = repl.screen();
  expect(count(screen, "The quick")).toBe(1);
  expect(screen).toContain(`› hello\n${SENTENCE}\n›`);
  expect(screen).not.toContain("retrying");
});

test("a retry that answers differently says so once, then shows the new answer whole", async () => {
  await using repl = await startRepl({ cwd: tempDir("retry"), baseUrl: server.url, args: ["-m", "changes-mind"] });
  server.inject({ cut: 8 });
  const mark = repl.mark();
  await repl.send("hello");
  await repl.idle(mark);
  const screen = repl.screen();
  expect(screen).toMatch(/\n! retrying model call \(attempt 2 of 6\) in 0\.\d s: .*; its answer starts over:\nA different answer entirely\.\n›/);
  expect(count(screen, "A different answer")).toBe(1);
});
