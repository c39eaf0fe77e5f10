import { afterAll, beforeAll, expect, test } from "bun:test";
import { savedSessions, startRepl } from "../../support/repl-pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// Quitting says how to come back; the line it prints is a command that works.
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.stop());

test("Ctrl-D after a turn prints 'resume with: shiro -r <prefix>', and that prefix resumes the session", async () => {
  const cwd = tempDir("hint");
  const repl = await startRepl({ cwd, baseUrl: server.url });
  const mark = repl.mark();
  await repl.send("remember the word kiwi");
  await repl.idle(mark);
  expect(await repl.quit()).toBe(0);
  const hint = /resume with: shiro -r (\S+)\n*$/.exec(repl.screen())?.[1];
  const [saved] = savedSessions(repl.home);
  expect(hint).toBe(saved.id.slice(0, 13));

  const again = await runShiro(["-r", hint!, "-p", "what was the word?"], { cwd, home: repl.home, env: { OPENAI_BASE_URL: server.url } });
  expect(again.code).toBe(0);
  expect(savedSessions(repl.home)).toHaveLength(1);
  expect(savedSessions(repl.home)[0].messages.length).toBeGreaterThan(saved.messages.length);
});

test("quitting a session where nothing was asked prints no hint (nothing was saved)", async () => {
  const repl = await startRepl({ cwd: tempDir("hint"), baseUrl: server.url });
  expect(await repl.quit()).toBe(0);
  expect(repl.screen()).not.toContain("resume with");
  expect(savedSessions(repl.home)).toHaveLength(0);
});

test("shiro -c says which session it resumed, as /resume does", async () => {
  const cwd = tempDir("hint");
  const first = await startRepl({ cwd, baseUrl: server.url });
  const mark = first.mark();
  await first.send("plan the kiwi harvest");
  await first.idle(mark);
  expect(await first.quit()).toBe(0);
  const [saved] = savedSessions(first.home);

  await using again = await startRepl({ cwd, baseUrl: server.url, home: first.home, args: ["-c"] });
  expect(again.screen()).toContain(`\nresumed ${saved.id.slice(0, 13)} · ${saved.messages.length} messages · gpt-5\n`);
});

test("a continued session shows where it left off: the last prompts, the tools they ran, the answers, clipped to the screen", async () => {
  const cwd = tempDir("hint");
  const first = await startRepl({ cwd, baseUrl: server.url });
  for (const line of ["plan the kiwi harvest", `and the apples ${"very ".repeat(40)}carefully`]) {
    const mark = first.mark();
    await first.send(line);
    await first.idle(mark);
  }
  expect(await first.quit()).toBe(0);

  await using again = await startRepl({ cwd, baseUrl: server.url, home: first.home, args: ["-c"], cols: 60 });
  const screen = again.screen();
  const recap = screen.slice(screen.indexOf("· where you left off:"), screen.lastIndexOf("\n› "));
  expect(recap.split("\n")).toEqual([
    "· where you left off:",
    "› plan the kiwi harvest",
    "You said: plan the kiwi harvest",
    `› and the apples ${"very ".repeat(40)}`.slice(0, 58) + "…",
    `You said: and the apples ${"very ".repeat(40)}`.slice(0, 58) + "…",
  ]);
});
