import { closeSync, writeSync } from "node:fs";

/**
 * shiro's end of a command's lifeline (the watcher is in command-argv.ts). `release` once the command
 * ended by itself: the watcher reads the byte and leaves, so redirected background jobs live on.
 * `cut` once the group has been killed: the watcher, if still there, kills what is left. Whichever
 * comes first wins; `fd` null (no lifeline) makes both no-ops.
 */
export function holdLifeline(fd: number | null) {
  let held = fd;
  const close = (byte: boolean) => {
    if (held === null) return;
    try {
      if (byte) writeSync(held, "\n");
    } catch {
      // EPIPE: the watcher is gone already (the command killed its own group).
    }
    closeSync(held);
    held = null;
  };
  return { release: () => close(true), cut: () => close(false) };
}
