import { createKeyDecoder, type Key } from "./key-decoder.ts";

/** How long a lone ESC waits to be sure it is the Esc key, not the start of a sequence. */
const ESCAPE_WAIT_MS = 50;
const PASTE_ON = "\x1b[?2004h";
const PASTE_OFF = "\x1b[?2004l";

/**
 * The keyboard in raw mode: every key as it is pressed (Ctrl-C is a key here, not a signal), with
 * bracketed paste on so a paste arrives whole. `close` gives the terminal back as it was.
 */
export function openTerminalInput(handlers: { key: (key: Key) => void; end: () => void; resumed: () => void }) {
  // The brackets are a setting of the terminal shown on stdout: with stdout in a file they would land in it.
  const brackets = Boolean(process.stdout.isTTY);
  const stdin = process.stdin;
  const decoder = createKeyDecoder();
  const text = new TextDecoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let open = true;

  const deliver = (keys: Key[]) => {
    for (const key of keys) if (open) handlers.key(key);
  };
  const onData = (chunk: Buffer | string) => {
    clearTimeout(timer);
    deliver(decoder.feed(typeof chunk === "string" ? chunk : text.decode(chunk, { stream: true })));
    if (decoder.pending()) timer = setTimeout(() => deliver(decoder.flush()), ESCAPE_WAIT_MS);
  };
  const onEnd = () => open && handlers.end();
  const enter = () => {
    stdin.setRawMode(true);
    if (brackets) process.stdout.write(PASTE_ON);
  };
  const leave = () => {
    if (brackets) process.stdout.write(PASTE_OFF);
    stdin.setRawMode(false);
  };
  // Back from Ctrl-Z: the shell left the terminal cooked, so raw mode and paste brackets are set again.
  const onContinue = () => {
    enter();
    handlers.resumed();
  };

  enter();
  stdin.on("data", onData);
  stdin.on("end", onEnd);
  process.on("SIGCONT", onContinue);
  stdin.resume();

  return {
    /** Ctrl-Z: the terminal as the shell expects it, then stop until `fg`. */
    suspend(): void {
      leave();
      process.kill(process.pid, "SIGTSTP");
    },
    close(): void {
      if (!open) return;
      open = false;
      clearTimeout(timer);
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      process.off("SIGCONT", onContinue);
      leave();
      stdin.pause();
    },
  };
}
