import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { lastUserText, sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// What the bottom of the screen shows while shiro works, and how it answers single keys.
const ANSWER = "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu";
const STATUS = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (\S.*?) · (\d+) s · [\d,]+ tokens? · .*Esc to interrupt/;

let server: StrictServer;
let paced: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "test-sleeper": sequenceModel([{ name: "bash", arguments: { command: "sleep 1.2" } }], "slept"),
    },
  });
  paced = await startStrictServer({ paceMs: 60, models: { "test-slow": () => ({ text: ANSWER }) } });
});
afterAll(() => Promise.all([server.stop(), paced.stop()]));

describe("the status line", () => {
  test("shows while a slow model has not answered yet, counts the seconds, and is gone when the answer ends", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: server.url });
    server.inject({ delayMs: 1700 });
    const mark = repl.mark();
    await repl.send("second try");
    const first = await repl.waitFor(STATUS, { since: mark });
    // Before the answer (the model holds it 1.7 s): the line is there while the person waits.
    expect(repl.output().slice(mark)).not.toContain("You said: second try");
    expect(first).toMatch(/thinking · 0 s/);
    await repl.waitFor(/thinking · 1 s/, { since: mark, timeoutMs: 20_000 });
    await repl.waitFor("You said: second try", { since: mark });
    await repl.idle(mark);
    expect(repl.screen()).not.toMatch(STATUS);
    expect(repl.screen()).toEndWith("› second try\nYou said: second try\n› ");
  });

  test("says what it waits for: a running command, then a retry's countdown", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: server.url, args: ["-m", "test-sleeper", "--yolo"] });
    let mark = repl.mark();
    await repl.send("sleep a little");
    await repl.waitFor(/running bash · \d s/, { since: mark });
    await repl.idle(mark);
    server.inject({ status: 503, retryAfterMs: 2000 });
    mark = repl.mark();
    await repl.send("once more");
    await repl.waitFor(/retrying in 2 s · \d s/, { since: mark });
    await repl.idle(mark, 8000);
  });

  test("is never drawn when stdout is not a terminal (shiro > file): the file gets the transcript only", async () => {
    const cwd = tempDir("live");
    const home = tempDir("live-home");
    const log = join(cwd, "out.log");
    const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url };
    await using pty = spawnPty(["sh", "-c", `exec "${BINARY}" > "${log}"`], { cwd, env });
    const written = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    await until(() => written().includes("Ctrl-D quits"));
    server.inject({ delayMs: 600 });
    pty.write(`hello file${keys.enter}`);
    await until(() => written().includes("You said: hello file"));
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
    expect(written()).not.toContain("Esc to interrupt");
    expect(written()).not.toContain("\x1b[");
  });
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !condition(); await Bun.sleep(25)) if (Date.now() > end) throw new Error("timed out");
}

describe("the prompt during a turn", () => {
  test("what is typed is shown on the prompt line below the answer; Enter queues it (counted), and it runs next", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: paced.url, args: ["-m", "test-slow"] });
    const before = paced.requests.length;
    await repl.send("first question");
    await repl.waitFor("Alpha");
    await repl.type("second", 1);
    // Visible while the answer streams: the prompt line, then the status line under it.
    const seen = await repl.waitFor(/\n› second\n.*Esc to interrupt$/);
    expect(seen).toMatch(STATUS);
    repl.write(keys.enter);
    await repl.waitFor(/· queued \(1\): second\n› \n.*1 queued · Esc to interrupt$/);
    await repl.waitFor(/› second\nAlpha[^\n]*\n› $/, { timeoutMs: 6000 });
    const sent = paced.requests.slice(before).map((r) => lastUserText(r.body.input));
    expect(sent).toEqual(["first question", "second"]);
    expect(await repl.quit()).toBe(0);
  });
});

describe("redrawing the prompt", () => {
  const COLS = 40;
  const LONG = "0123456789".repeat(9);

  /** Types `text` in one burst, jumps to the start with `home`, types `insert`: the screen must hold only the edited line. */
  async function editAtStart(repl: Awaited<ReturnType<typeof startRepl>>, text: string, home: string, insert: string): Promise<void> {
    const idle = repl.screen();
    repl.write(text);
    await repl.waitFor(`› ${text}`);
    repl.write(home + insert);
    await repl.waitFor(`› ${insert}${text}`);
    await Bun.sleep(100);
    expect(repl.screen()).toBe(`${idle}${insert}${text}`);
  }

  test("a wrapped line typed at once and edited at its start (Home) leaves no stale rows, at any width", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: server.url, cols: COLS });
    const idle = repl.screen();
    // All at once, as a fast typist's burst or tmux send-keys delivers it; Home as tmux sends it.
    await editAtStart(repl, LONG, "\x1b[1~", "X");
    // Narrower (the terminal reflows), then an edit: still only the one prompt line.
    const beforeResize = repl.mark();
    repl.resize(28, 40);
    await until(() => repl.output().length > beforeResize); // redrawn at the new width
    repl.write("Y");
    await repl.waitFor(`› XY${LONG}`);
    await Bun.sleep(100);
    expect(repl.screen()).toBe(`${idle}XY${LONG}`);
    repl.write("\x05\x15"); // Ctrl-E, Ctrl-U: the line emptied, so Ctrl-D quits
    expect(await repl.quit()).toBe(0);
  });

  test("wide characters that wrap are redrawn in place", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: server.url, cols: COLS });
    await editAtStart(repl, "漢字かな交じり文".repeat(4), "\x01", "é");
    repl.write("\x05\x15");
    expect(await repl.quit()).toBe(0);
  });
});

describe("slash commands", () => {
  test("typing / lists the commands with their descriptions, narrowing as you type", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: server.url });
    repl.write("/");
    await repl.waitFor(/^› \/\n {2}\/help +show this menu\n/m);
    expect(repl.screen()).toMatch(/^ {2}\/model \[id \| --force id\] +show the model/m);
    repl.write("se");
    await repl.waitFor(/› \/se\n {2}\/sessions \[--all\] +list this folder's last 15 sessions[^\n]*$/);
    expect(repl.screen()).not.toMatch(/^ {2}\/help/m);
    repl.write(keys.backspace.repeat(3));
    await repl.waitFor(/› $/);
    expect(await repl.quit()).toBe(0);
  });

  test("↑/↓ pick a command in the menu (highlighted, scrolled into view); Tab takes it, Enter runs it", async () => {
    await using repl = await startRepl({ cwd: tempDir("live"), baseUrl: server.url });
    repl.write("/");
    await repl.waitFor(/^ {2}\/help +show this menu$/m);
    // ↑ from no pick wraps to the last command, which is below the ten rows shown: the list scrolls to it.
    let mark = repl.mark();
    repl.write(keys.up);
    await repl.waitFor(/› \/registry/, { since: mark });
    expect(repl.screen()).toMatch(/^› \/registry/m);
    expect(repl.screen()).not.toMatch(/^ {2}\/help/m);
    // ↓ wraps back to the first; Enter runs the picked command, as if it had been typed.
    mark = repl.mark();
    repl.write(keys.down);
    await repl.waitFor(/› \/help/, { since: mark });
    expect(repl.screen()).toMatch(/^› \/help/m);
    mark = repl.mark();
    repl.write(keys.enter);
    await repl.waitFor(/^› \/help$/m, { since: mark });
    await repl.waitFor(/^ {2}\/sessions \[--all\] +list this folder's/m, { since: mark });
    // A command recalled from history keeps ↑/↓ for the history: no row is picked.
    repl.write(keys.up);
    await repl.waitFor(/› \/help\n {2}\/help +show this menu/);
    repl.write(keys.up);
    await Bun.sleep(150);
    expect(repl.screen()).not.toMatch(/^› \/help +show this menu/m);
    repl.write("\x15");
    await repl.waitFor(/› $/);
    // Tab takes the pick into the prompt, ready for its arguments; the menu closes.
    repl.write("/mo");
    await repl.waitFor(/› \/mo\n {2}\/model/);
    repl.write(keys.down + keys.tab);
    await repl.waitFor(/› \/model $/);
    expect(repl.screen()).toEndWith("\n› /model ");
    repl.write("\x15"); // Ctrl-U: an empty line, where Ctrl-D quits
    await repl.waitFor(/› $/);
    expect(await repl.quit()).toBe(0);
  });
});
