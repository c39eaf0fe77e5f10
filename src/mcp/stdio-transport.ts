import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { clipLine } from "../text/one-line.ts";
import { commandArgv, LIFELINE } from "../process/command-argv.ts";
import { feedPipe } from "../process/feed-pipe.ts";
import { holdLifeline } from "../process/lifeline.ts";
import { readMessages, type RpcMessage } from "./json-rpc.ts";
import { McpError } from "./mcp-error.ts";
import { readLines } from "./read-lines.ts";
import { StderrTail } from "./stderr-tail.ts";
import type { Transport, TransportEvents } from "./transport.ts";

/** `afterExit`: what the server's sandbox made for it alone, removed once it is gone. */
export type StdioDef = { command: string; args: string[]; cwd: string; env: Record<string, string>; fd4?: Uint8Array; afterExit?: () => void };

// After stdin closes, how long a server gets to exit by itself; then after SIGTERM, before SIGKILL.
const EXIT_GRACE_MS = 1500;
const TERM_GRACE_MS = 1500;
// One message per line: a line this long is a server that never ends one, not a message.
const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** The program `command` names: a path (relative to `cwd`, which must exist) or a name on the PATH the server's own environment gives. */
export function findProgram(def: Pick<StdioDef, "command" | "cwd" | "env">): string {
  if (!existsSync(def.cwd)) throw new McpError("startup", `its cwd does not exist: ${def.cwd}`);
  if (def.command.includes("/")) {
    const path = resolve(def.cwd, def.command);
    if (existsSync(path)) return path;
    throw new McpError("startup", `command not found: ${path}`);
  }
  const found = Bun.which(def.command, { PATH: def.env.PATH ?? "" });
  if (found) return found;
  throw new McpError("startup", `command not found: ${def.command} (not on the PATH of the environment it is given)`);
}

/**
 * Starts a stdio server: its own process group (so one signal reaches all it starts) behind the
 * lifeline watcher that kills that group should shiro die, even by SIGKILL (command-argv.ts). stdout is
 * the protocol and nothing else: any other line there ends the connection. stderr is kept as a tail.
 * Throws an McpError (`startup`) when there is nothing to start.
 */
export function startStdioTransport(def: StdioDef, events: TransportEvents): Transport {
  let program: string;
  let proc: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    program = findProgram(def);
  } catch (err) {
    def.afterExit?.(); // never started: nothing of its sandbox is needed
    throw err;
  }
  try {
    proc = Bun.spawn(commandArgv([program, ...def.args]), {
      cwd: def.cwd,
      env: def.env,
      stdio: ["pipe", "pipe", "pipe", LIFELINE ? "pipe" : "ignore", def.fd4 ? "pipe" : "ignore"],
      detached: true,
    }) as unknown as Bun.Subprocess<"pipe", "pipe", "pipe">;
  } catch (err) {
    def.afterExit?.();
    throw new McpError("startup", `could not start ${program}: ${(err as Error).message}`);
  }
  if (def.fd4) feedPipe(proc.stdio[4] as number, def.fd4);
  const lifeline = holdLifeline((proc.stdio[3] as number | undefined) ?? null);
  const tail = new StderrTail();
  // Why the connection ended, set once: the first of a protocol breach, an exit, or close().
  let ended: string | undefined;
  let closing: Promise<void> | undefined;
  let announced: () => void = () => {};
  const over = new Promise<void>((resolve) => (announced = resolve));

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const exitedWithin = (ms: number) => Promise.race([proc.exited.then(() => true), Bun.sleep(ms).then(() => false)]);
  // stdin closed first (the spec's polite way), then SIGTERM, then SIGKILL to the whole group: what the
  // server started goes with it, and the watcher (which ignores SIGTERM) last.
  const close = () =>
    (closing ??= (async () => {
      ended ??= "was closed";
      try {
        proc.stdin.end();
      } catch {
        // Its stdin is closed already.
      }
      if (!(await exitedWithin(EXIT_GRACE_MS))) {
        signalGroup("SIGTERM");
        await exitedWithin(TERM_GRACE_MS);
      }
      signalGroup("SIGKILL");
      lifeline.cut();
      await proc.exited;
    })());
  const end = (why: string) => {
    if (ended !== undefined) return;
    ended = why;
    announced();
    events.onClose(why);
    void close();
  };

  const stdout = readLines(
    proc.stdout,
    (line, tooLong) => {
      if (ended !== undefined || !line.trim()) return;
      const read = tooLong ? undefined : readMessages(line);
      if (!read?.ok) return end(`printed non-protocol text on stdout: ${clipLine(line, 160)}`);
      for (const message of read.messages) events.onMessage(message);
    },
    MAX_LINE_CHARS,
  ).catch(() => {});
  const stderr = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) tail.push(decoder.decode(chunk, { stream: true }));
  })().catch(() => {});
  // Its stdout at an end while it lives on: no answer can come any more, so its calls end now, not at their timeout.
  void stdout.then(async () => {
    if (!(await exitedWithin(200))) end("closed its stdout and cannot answer any more");
  });
  void proc.exited.then(async (code) => {
    def.afterExit?.();
    // What it wrote just before exiting is read first (a child holding a pipe open does not stall this).
    await Promise.race([Promise.all([stdout, stderr]), Bun.sleep(200)]);
    end(proc.signalCode ? `was killed by ${proc.signalCode}` : `exited with code ${code}`);
  });

  return {
    pid: proc.pid,
    async send(message: RpcMessage) {
      if (ended !== undefined) throw new McpError("closed", `the server ${ended}`);
      try {
        proc.stdin.write(`${JSON.stringify(message)}\n`);
        await proc.stdin.flush();
      } catch {
        // A closed stdin is most likely an exit on its way: say which, when it comes soon.
        await Promise.race([over, Bun.sleep(1000)]);
        throw new McpError("closed", `the server ${ended ?? "closed its stdin"}`);
      }
    },
    setProtocolVersion() {},
    listen() {},
    stderrTail: () => tail.toString(),
    close,
  };
}
