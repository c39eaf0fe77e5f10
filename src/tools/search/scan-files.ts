import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { MatchList } from "./match-list.ts";
import { displayPath } from "../../files/project-paths.ts";
import { breather } from "../../files/breather.ts";

/** Without ripgrep a file is read whole into memory, so one larger than this is named instead of searched. */
export const SCAN_MAX_BYTES = 5 * 1024 * 1024;

export type ScanRun = {
  root: string;
  files: readonly string[];
  regex: RegExp;
  matches: MatchList;
  signal: AbortSignal;
  /** Whether a file's matches may be shown, asked at its first match (a folder search); without it, all are. */
  mayShow?: (abs: string) => boolean;
};

/**
 * grep's own search, when ripgrep is not there: each file read in one go, skipped when binary, and
 * split into lines only when the whole text matches the pattern with `m` (a line's match is always a
 * match of the whole text then, so nothing is lost; most files are passed over at that first test).
 */
export async function scanFiles(run: ScanRun): Promise<{ tooLarge: string[]; refused: number }> {
  // A lookaround may see past a line's end in the whole text, so those patterns go line by line.
  const whole = /\(\?<?[=!]/.test(run.regex.source) ? undefined : new RegExp(run.regex.source, "m");
  const decoder = new TextDecoder();
  const tooLarge: string[] = [];
  let refused = 0;
  const breathe = breather();
  for (const abs of run.files) {
    await breathe();
    if (run.signal.aborted) break;
    const bytes = readSmall(abs);
    if (bytes === "too large") tooLarge.push(displayPath(run.root, abs));
    // Binary as read_file judges it, and as ripgrep ends up treating it: a NUL byte anywhere.
    if (typeof bytes === "string" || bytes.includes(0)) continue;
    const text = decoder.decode(bytes);
    if (whole && !whole.test(text)) continue;
    let shown: string | undefined;
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop(); // no line after the last newline, as ripgrep counts them
    for (let i = 0; i < lines.length; i++) {
      if (!run.regex.test(lines[i]!)) continue;
      if (shown === undefined) {
        if (run.mayShow && !run.mayShow(abs)) {
          refused++;
          break;
        }
        shown = displayPath(run.root, abs);
      }
      run.matches.add(shown, i + 1, lines[i]!);
    }
  }
  return { tooLarge, refused };
}

/** The bytes of a file up to SCAN_MAX_BYTES; "too large" past it, "unreadable" when it cannot be read. */
function readSmall(abs: string): Uint8Array | "too large" | "unreadable" {
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch {
    return "unreadable";
  }
  try {
    const size = fstatSync(fd).size;
    if (size > SCAN_MAX_BYTES) return "too large";
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } catch {
    return "unreadable";
  } finally {
    closeSync(fd);
  }
}
