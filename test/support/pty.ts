// Drive an interactive program through a real pseudo-terminal (Bun.spawn's `terminal` option), the way a
// person at a keyboard would: the child sees isTTY, raw mode works, keys arrive as the bytes a terminal sends.
//
//   await using pty = spawnPty([process.execPath, "src/main.ts"], { cwd, env: { ...process.env, SHIRO_HOME } });
//   await pty.waitFor("> ");
//   await pty.type("/he"); pty.write(keys.tab); await pty.waitFor("/help");
//   pty.write(keys.ctrlD); expect(await pty.exited).toBe(0);
//
// Wait for the prompt before typing: until the child switches the tty to raw mode the kernel echoes and
// line-buffers input itself, and Ctrl-C becomes a real SIGINT.

import { LineScreen } from "./line-screen.ts";

/** The bytes a terminal sends for each key. */
export const keys = {
  enter: "\r",
  esc: "\x1b",
  ctrlC: "\x03",
  ctrlD: "\x04",
  tab: "\t",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  backspace: "\x7f",
} as const;

export interface PtyOptions {
  cwd: string;
  /** Passed as-is (nothing is inherited); TERM defaults to xterm-256color as in a real terminal. */
  env: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
}

export interface WaitOptions {
  timeoutMs?: number;
  /** A mark(): match only what was written after it (rendered on its own), not the whole screen. */
  since?: number;
}

export interface Pty {
  readonly pid: number;
  write(text: string): void;
  /** Writes one character at a time with a short pause, as a person types. */
  type(text: string, delayMs?: number): Promise<void>;
  /** Everything received so far, escape sequences included. */
  output(): string;
  /** What a person would read: logical lines after applying cursor moves and erases. */
  screen(): string;
  /** The screen line the cursor is on (the input line, prompt included). */
  currentLine(): string;
  /** An offset into output() for `waitFor(..., { since })`. */
  mark(): number;
  /** Resolves with the matched text; rejects on timeout (default 3 s) or exit, showing the screen's last 30 lines. */
  waitFor(pattern: string | RegExp, options?: WaitOptions): Promise<string>;
  resize(cols: number, rows: number): void;
  /** The exit code (128+n when killed by signal n), once the child is gone and its output drained. */
  readonly exited: Promise<number>;
  kill(signal?: NodeJS.Signals): void;
  /** Closes the terminal, as closing its window does: the child gets SIGHUP, and its reads and writes fail. */
  hangUp(): void;
  /** Kills the child if still running and waits for it — for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

interface Waiter {
  pattern: string | RegExp;
  since: number | undefined;
  resolve(match: string): void;
  fail(reason: string): void;
}

const TAIL_LINES = 30;
// Below bun test's 5 s per-test limit, so a stuck wait fails with the screen rather than a bare timeout.
const DEFAULT_WAIT_MS = 3000;
// After the child exits, how long to wait for the pty to report EOF (a grandchild may hold it open).
const DRAIN_GRACE_MS = 500;

export function spawnPty(cmd: string[], options: PtyOptions): Pty {
  let cols = options.cols ?? 80;
  let rows = options.rows ?? 24;
  const screen = new LineScreen(cols, rows);
  const decoder = new TextDecoder();
  const eof = Promise.withResolvers<void>();
  const waiters = new Set<Waiter>();
  let received = "";
  let screenText: string | undefined;
  let exitCode: number | undefined;
  let checkScheduled = false;

  const env: Record<string, string> = { TERM: "xterm-256color" };
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value;

  const proc = Bun.spawn(cmd, {
    cwd: options.cwd,
    env,
    terminal: {
      cols,
      rows,
      data(_terminal, bytes) {
        const text = decoder.decode(bytes, { stream: true });
        received += text;
        screen.feed(text);
        screenText = undefined;
        scheduleCheck();
      },
      exit: () => eof.resolve(),
    },
  });
  const terminal = proc.terminal!;

  const renderScreen = () => (screenText ??= screen.text());

  function haystack(since: number | undefined): string {
    if (since === undefined) return renderScreen();
    const fresh = new LineScreen(cols, rows);
    fresh.feed(received.slice(since));
    return fresh.text();
  }

  function find(pattern: string | RegExp, text: string): string | undefined {
    if (typeof pattern === "string") return text.includes(pattern) ? pattern : undefined;
    pattern.lastIndex = 0; // a /g or /y pattern would otherwise resume where the previous check stopped
    return pattern.exec(text)?.[0];
  }

  // Many small chunks arrive in a burst; check waiters once per burst, not once per chunk.
  function scheduleCheck(): void {
    if (checkScheduled || waiters.size === 0) return;
    checkScheduled = true;
    setTimeout(checkWaiters, 1);
  }

  function checkWaiters(): void {
    checkScheduled = false;
    for (const waiter of waiters) {
      const match = find(waiter.pattern, haystack(waiter.since));
      if (match !== undefined) waiter.resolve(match);
      else if (exitCode !== undefined) waiter.fail(`the program exited with code ${exitCode} first`);
    }
  }

  function describeFailure(pattern: string | RegExp, options: WaitOptions, reason: string): string {
    const lines = renderScreen().split("\n").slice(-TAIL_LINES);
    const since = options.since === undefined ? "" : ` (since mark ${options.since})`;
    return [
      `waitFor(${typeof pattern === "string" ? JSON.stringify(pattern) : String(pattern)})${since}: ${reason}.`,
      `--- last ${lines.length} lines of the screen ---`,
      ...lines,
      "--- end of screen ---",
    ].join("\n");
  }

  const exited = proc.exited.then(async (code) => {
    await Promise.race([eof.promise, Bun.sleep(DRAIN_GRACE_MS)]);
    const tail = decoder.decode();
    received += tail;
    screen.feed(tail);
    screenText = undefined;
    terminal.close();
    exitCode = code;
    checkWaiters();
    return code;
  });

  return {
    pid: proc.pid,
    write(text) {
      terminal.write(text);
    },
    async type(text, delayMs = 3) {
      for (const ch of text) {
        terminal.write(ch);
        await Bun.sleep(delayMs);
      }
    },
    output: () => received,
    screen: renderScreen,
    currentLine: () => screen.currentLine(),
    mark: () => received.length,
    waitFor(pattern, waitOptions = {}) {
      const timeoutMs = waitOptions.timeoutMs ?? DEFAULT_WAIT_MS;
      // Created here so a failing test's stack points at the waitFor call, not at a timer.
      const error = new Error();
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => waiter.fail(`not seen within ${timeoutMs} ms`), timeoutMs);
        const waiter: Waiter = {
          pattern,
          since: waitOptions.since,
          resolve(match) {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(match);
          },
          fail(reason) {
            clearTimeout(timer);
            waiters.delete(waiter);
            error.message = describeFailure(pattern, waitOptions, reason);
            reject(error);
          },
        };
        waiters.add(waiter);
        checkWaiters();
      });
    },
    resize(newCols, newRows) {
      terminal.resize(newCols, newRows);
      screen.resize(newCols, newRows);
      cols = newCols;
      rows = newRows;
    },
    exited,
    kill(signal = "SIGTERM") {
      if (exitCode === undefined) proc.kill(signal);
    },
    hangUp() {
      terminal.close();
    },
    async [Symbol.asyncDispose]() {
      if (exitCode === undefined) proc.kill("SIGKILL");
      await exited;
    },
  };
}
