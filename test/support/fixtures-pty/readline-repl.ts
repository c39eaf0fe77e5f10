// A tiny node:readline REPL shaped like shiro's, for proving the pty harness and recording how Bun's
// readline behaves in a real terminal. Every event it sees is printed in [brackets] so tests can wait for it.
//   REPL_ESC_MS=n          pass escapeCodeTimeout: n to createInterface
//   REPL_KEYPRESS_FIRST=1  call readline.emitKeypressEvents(stdin) before createInterface
//   REPL_NO_SIGINT=1       no 'SIGINT' listener on the interface
import * as readline from "node:readline";

const commands = ["/help", "/history", "/quit"];
const escapeMs = process.env.REPL_ESC_MS;

if (process.env.REPL_KEYPRESS_FIRST === "1") readline.emitKeypressEvents(process.stdin);
const rl = readline.createInterface({
  input: process.stdin,
  output: process.stdout,
  terminal: true,
  prompt: "repl> ",
  historySize: 50,
  completer: (line: string) => [commands.filter((c) => c.startsWith(line)), line],
  ...(escapeMs === undefined ? {} : { escapeCodeTimeout: Number(escapeMs) }),
});

process.stdin.on("keypress", (_text, key: readline.Key | undefined) => {
  if (key?.name === "escape") process.stdout.write(`\n[escape meta=${key.meta}]\n`);
});
rl.on("line", (line) => {
  process.stdout.write(`[line ${JSON.stringify(line)}]\n`);
  rl.prompt();
});
if (process.env.REPL_NO_SIGINT !== "1") {
  rl.on("SIGINT", () => {
    process.stdout.write(`\n[sigint line=${JSON.stringify(rl.line)}]\n`);
    rl.prompt();
  });
}
process.on("SIGINT", () => process.stdout.write("[process sigint]\n"));
const stdin = process.stdin as typeof process.stdin & { isRaw?: boolean };
// No process.exit: closing the interface must be enough for the program to end.
rl.on("close", () => process.stdout.write(`[closed raw=${stdin.isRaw}]\n`));

process.stdout.write(`[tty in=${stdin.isTTY} out=${process.stdout.isTTY} raw=${stdin.isRaw} cols=${process.stdout.columns}]\n`);
if (escapeMs !== undefined) process.stdout.write(`[esc-timeout ${(rl as unknown as { escapeCodeTimeout: number }).escapeCodeTimeout}]\n`);
rl.prompt();
