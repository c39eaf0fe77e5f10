// Proves test/support/pty.ts against real programs in a real pty, and pins down how Bun's node:readline
// behaves there (history, completion, Ctrl-C, Esc, Ctrl-D) — the REPL tests rely on exactly this.
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { keys, spawnPty, type Pty } from "../../support/pty.ts";

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "shiro-pty-"));
afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));
const env = { PATH: process.env.PATH, HOME: cwd };
const replScript = path.join(import.meta.dir, "../../support/fixtures-pty/readline-repl.ts");

function bunEval(code: string): string[] {
  return [process.execPath, "-e", code];
}

async function startRepl(extraEnv: Record<string, string> = {}, cols = 100): Promise<Pty> {
  const pty = spawnPty([process.execPath, replScript], { cwd, env: { ...env, ...extraEnv }, cols });
  await pty.waitFor("repl> ");
  return pty;
}

describe("pty harness", () => {
  test("the child sees a real terminal of the requested size and its exit code comes back", async () => {
    await using pty = spawnPty(
      bunEval("console.log(`tty=${process.stdout.isTTY} ${process.stdout.columns}x${process.stdout.rows} ${process.env.TERM}`); process.exit(3)"),
      { cwd, env, cols: 120, rows: 40 },
    );
    expect(await pty.exited).toBe(3);
    expect(pty.screen()).toBe("tty=true 120x40 xterm-256color\n");
  });

  test("a flood of output arrives whole before exited resolves", async () => {
    await using pty = spawnPty(
      bunEval("for (let i = 0; i < 20000; i++) console.log('row ' + i + ' ' + 'x'.repeat(40)); console.log('END')"),
      { cwd, env },
    );
    await pty.waitFor("END");
    expect(await pty.exited).toBe(0);
    const lines = pty.screen().split("\n");
    expect(lines.length).toBe(20002);
    expect(lines[19999]).toBe(`row 19999 ${"x".repeat(40)}`);
    let expectedBytes = "END\r\n".length;
    for (let i = 0; i < 20000; i++) expectedBytes += `row ${i} ${"x".repeat(40)}\r\n`.length;
    expect(pty.output().length).toBe(expectedBytes);
  });

  test("waitFor failures say what was awaited and show the end of the screen", async () => {
    await using pty = spawnPty(bunEval("console.log('first'); console.log('second'); setTimeout(() => {}, 5000)"), { cwd, env });
    await pty.waitFor("second");
    const failure = await pty.waitFor(/never/, { timeoutMs: 150 }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("waitFor(/never/): not seen within 150 ms");
    expect((failure as Error).message).toContain("first\nsecond");
  });

  test("waitFor fails at once when the program exits without printing the text", async () => {
    await using pty = spawnPty(bunEval("console.log('bye'); process.exit(2)"), { cwd, env });
    // Said as an exit, not as the wait's time running out.
    const failure = await pty.waitFor("never", { timeoutMs: 20_000 }).catch((e: Error) => e);
    expect((failure as Error).message).toContain("exited with code 2 first");
    expect((failure as Error).message).toContain("bye");
  });

  test("since a mark, only later output counts", async () => {
    await using pty = await startRepl();
    await pty.type("ping");
    pty.write(keys.enter);
    await pty.waitFor('[line "ping"]');
    const mark = pty.mark();
    const stale = await pty.waitFor('[line "ping"]', { since: mark, timeoutMs: 100 }).catch((e: Error) => e);
    expect(stale).toBeInstanceOf(Error);
    pty.write(`ping${keys.enter}`);
    expect(await pty.waitFor(/\[line "\w+"\]/, { since: mark })).toBe('[line "ping"]');
  });

  test("resize reaches the child as a resize event with the new size", async () => {
    await using pty = spawnPty(
      bunEval("process.stdout.on('resize', () => console.log(`size=${process.stdout.columns}x${process.stdout.rows}`)); console.log('ready'); setTimeout(() => {}, 3000)"),
      { cwd, env },
    );
    await pty.waitFor("ready");
    pty.resize(50, 20);
    await pty.waitFor("size=50x20");
  });

  test("kill ends a running child and exited reports the signal as 128+n", async () => {
    const pty = spawnPty(["sleep", "30"], { cwd, env });
    pty.kill();
    expect(await pty.exited).toBe(128 + 15);
  });
});

describe("Bun's node:readline in a pty", () => {
  test("readline puts the tty in raw mode itself: typed text is echoed once, Enter arrives as \\r", async () => {
    await using pty = await startRepl();
    expect(pty.screen()).toContain("[tty in=true out=true raw=true cols=100]");
    await pty.type("hello");
    await pty.waitFor(/repl> hello$/);
    expect(pty.currentLine()).toBe("repl> hello");
    pty.write(keys.enter);
    await pty.waitFor('[line "hello"]');
    expect(pty.output()).toContain('hello\r\r\n[line "hello"]\r\n');
    expect(pty.screen().match(/hello/g)?.length).toBe(2);
  });

  test("keys typed before the prompt are not lost, but the kernel echoes them too", async () => {
    await using pty = spawnPty([process.execPath, replScript], { cwd, env });
    pty.write(`early${keys.enter}`);
    await pty.waitFor('[line "early"]');
    // The tty was still in cooked mode: it echoed the line before readline drew the prompt and echoed it again.
    expect(pty.screen()).toMatch(/^early\n\[tty [^\n]*\]\nrepl> early\n\[line "early"\]/);
  });

  test("an input line longer than the terminal is wide wraps and redraws cleanly from history", async () => {
    await using pty = await startRepl({}, 20);
    const long = "abcdefghijklmnopqrstuvwxyz";
    pty.write(long + keys.enter);
    await pty.waitFor(`[line "${long}"]`);
    pty.write(keys.up);
    await pty.waitFor(new RegExp(`repl> ${long}$`));
    pty.write(keys.backspace.repeat(10));
    await pty.waitFor(/repl> abcdefghijklmnop$/);
    // An edited recalled entry becomes the new draft: down keeps it, up searches history with it as prefix.
    const beforeDown = pty.mark();
    pty.write(keys.down);
    await pty.waitFor(/^repl> abcdefghijklmnop$/, { since: beforeDown });
    expect(pty.currentLine()).toBe("repl> abcdefghijklmnop");
    pty.write(keys.up);
    await pty.waitFor(new RegExp(`repl> ${long}$`));
    expect(pty.screen().split("\n").slice(-2)).toEqual([`[line "${long}"]`, `repl> ${long}`]);
  });

  test("up/down walk the history; down past the newest restores the half-typed line", async () => {
    await using pty = await startRepl();
    for (const line of ["one", "two"]) {
      pty.write(line + keys.enter);
      await pty.waitFor(`[line "${line}"]`);
    }
    const step = async (key: string, expected: string) => {
      pty.write(key);
      await pty.waitFor(new RegExp(`repl> ${expected}$`));
      expect(pty.currentLine()).toBe(`repl> ${expected}`);
    };
    await step(keys.up, "two");
    await step(keys.up, "one");
    await step(keys.down, "two");
    await step(keys.down, "");
    // Half-typed text is a prefix filter for history and comes back when you walk off the newest entry.
    await pty.type("o");
    await step(keys.up, "one");
    await step(keys.down, "o");
    // With no entry starting with the typed text, up changes nothing.
    await pty.type("x");
    pty.write(keys.up);
    pty.write(keys.enter);
    await pty.waitFor('[line "ox"]');
  });

  test("tab completes a unique match in place; a second tab lists several", async () => {
    await using pty = await startRepl();
    await pty.type("/he");
    pty.write(keys.tab);
    await pty.waitFor("repl> /help");
    pty.write(keys.enter);
    await pty.waitFor('[line "/help"]');

    await pty.type("/h");
    await pty.waitFor(/repl> \/h$/);
    const mark = pty.mark();
    pty.write(keys.tab);
    await Bun.sleep(100);
    expect(pty.output().slice(mark)).toBe("");
    pty.write(keys.tab);
    // The list, a blank line, then the prompt redrawn with the text typed so far.
    await pty.waitFor(/\/help {5}\/history\n\nrepl> \/h$/);
  });

  test("Ctrl-C emits 'SIGINT' on the interface (not the process); prompt() keeps the draft, cursor at its start", async () => {
    await using pty = await startRepl();
    await pty.type("draft");
    pty.write(keys.ctrlC);
    await pty.waitFor(/\[sigint line="draft"\]\nrepl> draft$/);
    expect(pty.screen()).not.toContain("[process sigint]");
    expect(pty.currentLine()).toBe("repl> draft");
    // A REPL that wants Ctrl-C to discard the draft must clear rl.line itself.
    pty.write(`X${keys.enter}`);
    await pty.waitFor('[line "Xdraft"]');
  });

  test("Ctrl-C without a 'SIGINT' listener closes the interface", async () => {
    await using pty = await startRepl({ REPL_NO_SIGINT: "1" });
    pty.write(keys.ctrlC);
    await pty.waitFor("[closed raw=false]");
    expect(await pty.exited).toBe(0);
  });

  test("Esc arrives as keypress 'escape' (meta) after readline's 500 ms escape timeout", async () => {
    await using pty = await startRepl();
    const started = Date.now();
    pty.write(keys.esc);
    await pty.waitFor("[escape meta=true]");
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  test("escapeCodeTimeout is taken (the interface says so); stdin 'keypress' fires without calling emitKeypressEvents", async () => {
    await using pty = await startRepl({ REPL_ESC_MS: "50" });
    expect(pty.screen()).toContain("[esc-timeout 50]");
    pty.write(keys.esc);
    await pty.waitFor("[escape meta=true]");
  });

  test("calling emitKeypressEvents(stdin) before createInterface pins the Esc delay at 500 ms", async () => {
    await using pty = await startRepl({ REPL_ESC_MS: "50", REPL_KEYPRESS_FIRST: "1" });
    const started = Date.now();
    pty.write(keys.esc);
    await pty.waitFor("[escape meta=true]");
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  test("Esc followed at once by another key is read as Meta+key, not as Esc", async () => {
    await using pty = await startRepl({ REPL_ESC_MS: "50" });
    pty.write(`${keys.esc}b`);
    await Bun.sleep(200);
    expect(pty.screen()).not.toContain("[escape");
    expect(pty.currentLine()).toBe("repl> ");
  });

  test("Ctrl-D on an empty line closes with exit code 0; on a non-empty line it deletes forward", async () => {
    await using pty = await startRepl();
    await pty.type("ab");
    pty.write(keys.left + keys.left + keys.ctrlD);
    await pty.waitFor(/repl> b$/);
    pty.write(keys.ctrlD + keys.ctrlD);
    // Closing restores cooked mode and nothing keeps the event loop alive.
    await pty.waitFor("[closed raw=false]");
    expect(await pty.exited).toBe(0);
  });
});
