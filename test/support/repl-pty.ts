
import { BINARY } from "./binary.ts";
import { keys, spawnPty, type Pty } from "./pty.ts";
import { tempDir } from "./run-shiro.ts";
import { TEST_API_KEY } from "./test-key.ts";

/** The REPL's input prompt. */
export const PROMPT = "› ";

const QUIT_WAIT_MS = 3000;

export type ReplOptions = {
  cwd: string;
  /** The strict server's URL (ends in /v1). */
  baseUrl: string;
  home?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  /** The terminal's width (default 120). */
  cols?: number;
  /** A command the binary runs under (`unshare -m sh -c '…' …`: a home mounted read-only). */
  wrap?: readonly string[];
  /** What the screen shows once the REPL is ready (default: the empty prompt last). */
  ready?: RegExp;
};

export type Repl = Pty & {
  home: string;
  /** Types a line and presses Enter. */
  send(line: string): Promise<void>;
  /** Waits until the prompt is the last thing on screen (the REPL is idle), after `since`. */
  idle(since?: number, timeoutMs?: number): Promise<void>;
  /** Quits with Ctrl-D and returns the exit code. */
  quit(): Promise<number>;
};

/** Starts dist/shiro in a pseudo-terminal with a temp SHIRO_HOME, a dummy key and the given server. */
export async function startRepl(opts: ReplOptions): Promise<Repl> {
  const home = opts.home ?? tempDir("repl-home");
  const pty = spawnPty([...(opts.wrap ?? []), BINARY, ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      SHIRO_HOME: home,
      OPENAI_API_KEY: TEST_API_KEY,
      OPENAI_BASE_URL: opts.baseUrl,
      ...opts.env,
    },
    cols: opts.cols ?? 120,
    rows: 40,
  });
  const repl = pty as Repl;
  repl.home = home;
  repl.send = async (line) => {
    await pty.type(line, 1);
    pty.write(keys.enter);
  };
  repl.idle = async (since, timeoutMs = 5000) => {
    await pty.waitFor(/› $/, { ...(since === undefined ? {} : { since }), timeoutMs });
  };
  repl.quit = async () => {
    pty.write(keys.ctrlD);
    const late = Bun.sleep(QUIT_WAIT_MS).then(() => {
      throw new Error(`the REPL did not quit on Ctrl-D within ${QUIT_WAIT_MS} ms; screen:\n${pty.screen()}`);
    });
    return Promise.race([pty.exited, late]);
  };
  if (opts.ready) await pty.waitFor(opts.ready, { timeoutMs: 5000 });
  else await repl.idle(undefined, 5000);
  return repl;
}

/** The sessions saved under a SHIRO_HOME, parsed. */
export { savedSessions } from "./saved-sessions.ts";
