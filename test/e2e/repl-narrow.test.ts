import { afterAll, beforeAll, expect, test } from "bun:test";
import { startRepl } from "../support/repl-pty.ts";
import { tempDir } from "../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../support/strict-server.ts";

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
