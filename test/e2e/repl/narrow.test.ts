import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro } from "../../support/run-shiro.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// A 60-column terminal: menus wrap their descriptions under themselves instead of letting the
// terminal break words and run text under the left column.
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.stop());

const COLS = 60;
const linesAfter = (screen: string, marker: string) => screen.slice(screen.lastIndexOf(marker)).split("\n").slice(1, -1);

test("/help and /tools fit a 60-column terminal, continuations aligned under the description", async () => {
  await using repl = await startRepl({ cwd: tempDir("narrow"), baseUrl: server.url, cols: COLS });
  let mark = repl.mark();
  await repl.send("/help");
  await repl.idle(mark);
  const help = linesAfter(repl.screen(), "› /help");
  for (const line of help) expect(line.length).toBeLessThan(COLS);
  const memory = help.findIndex((l) => l.startsWith("  /memory "));
  const column = help[memory]!.indexOf("have the model");
  expect(help[memory + 1]!.search(/\S/)).toBe(column);
  expect(help).toContain("Keys");
  expect(help.some((l) => /^ {2}Ctrl-C {2}stops a running command/.test(l))).toBe(true);

  mark = repl.mark();
  await repl.send("/tools");
  await repl.idle(mark);
  const tools = linesAfter(repl.screen(), "› /tools");
  for (const line of tools) expect(line.length).toBeLessThan(COLS);
  const glob = tools.findIndex((l) => l.startsWith("  glob "));
  expect(tools[glob + 1]!.search(/\S/)).toBe(tools[glob]!.indexOf("Find files"));
  expect(await repl.quit()).toBe(0);
});

test("/compact with nothing to compact says only that, not that a summary is being written", async () => {
  await using repl = await startRepl({ cwd: tempDir("narrow"), baseUrl: server.url });
  const mark = repl.mark();
  await repl.send("/compact");
  await repl.idle(mark);
  expect(repl.screen()).toContain("› /compact\n! nothing to compact yet\n");
  expect(repl.screen()).not.toContain("writing a summary");
});

test("at 40 columns every table is clipped to the width, never wrapped: /help, /sessions, /skills, /registry installed", async () => {
  const cols = 40;
  const cwd = tempDir("narrow");
  const home = tempDir("narrow-home");
  const skill = (name: string) => `---\nname: ${name}\ndescription: Drafts the release notes from the merged pull requests since the last tag\n---\nDo it well.\n`;
  mkdirSync(join(cwd, ".shiro", "skills"), { recursive: true });
  writeFileSync(join(cwd, ".shiro", "skills", "release-notes.md"), skill("release-notes"));
  mkdirSync(join(home, "registry", "skills"), { recursive: true });
  writeFileSync(join(home, "registry", "skills", "changelog-writer.md"), skill("changelog-writer"));
  expect((await runShiro(["-p", "a session with a long title to list in the table"], { cwd, home, env: { OPENAI_BASE_URL: server.url } })).code).toBe(0);
  await using repl = await startRepl({ cwd, home, baseUrl: server.url, cols });
  for (const [command, expected] of [["/help", "/sessions"], ["/sessions", "a session"], ["/skills", "release-notes"], ["/registry installed", "changelog-writer"]] as const) {
    const mark = repl.mark();
    await repl.send(command);
    await repl.waitFor(expected, { since: mark });
    await repl.idle(mark);
    const lines = linesAfter(repl.screen(), `› ${command}`);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThan(cols);
  }
  expect(await repl.quit()).toBe(0);
});
