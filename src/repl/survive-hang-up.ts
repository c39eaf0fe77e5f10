import { dropFailedWrites } from "../exit/stop-signals.ts";

/**
 * A closed terminal fails every read, write and tty-mode change with EIO. readline restores the mode
 * as it closes and would throw there, before the REPL saves: a failed mode change is taken for the
 * hang-up it is (`onHangUp`, often ahead of the SIGHUP itself), and writes that fail are dropped.
 */
export function surviveHangUp(onHangUp: () => void): void {
  const stdin = process.stdin;
  const setRawMode = stdin.setRawMode.bind(stdin);
  stdin.setRawMode = (mode: boolean) => {
    try {
      return setRawMode(mode);
    } catch {
      onHangUp();
      return stdin;
    }
  };
  // Bun reports the failed mode change as an 'error' on stdin as well.
  stdin.on("error", () => {});
  dropFailedWrites();
}
