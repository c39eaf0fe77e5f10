import { closeSync, writeSync } from "node:fs";

/** Writes `bytes` into a pipe and closes it; the reader (bwrap) takes them at once, so a full pipe only waits a moment. */
export function feedPipe(fd: number, bytes: Uint8Array): void {
  try {
    for (let at = 0; at < bytes.length; ) {
      try {
        at += writeSync(fd, bytes, at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
        Bun.sleepSync(1);
      }
    }
  } finally {
    closeSync(fd);
  }
}
