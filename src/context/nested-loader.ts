import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import type { InstructionFile } from "../session/reduce-session.ts";
import { foldersBelow } from "./folders-below.ts";
import { instructionCandidates } from "./instruction-candidates.ts";
import { capNested, cutNotice, nestedBytes, NESTED_FILE_CAP } from "./nested-section.ts";

export type NestedLoaderOptions = {
  /** The session's folder: only folders below it count (those above and itself were read at the start). */
  root: string;
  /** The files already in force (the session's, and those its parent had), by path from `root`. */
  loaded: () => readonly InstructionFile[];
  /** Whether a `read_file` of this file would be refused (a secret, a deny rule, only a person): then it is not loaded. */
  readDenied?: (absolute: string) => boolean;
  /** Puts a joined file on record (an `instructions` event); the next request's instructions carry it. */
  record: (file: InstructionFile) => void;
  warn: (line: string) => void;
};

/**
 * What to do with the paths a tool call touched: each folder below the root on the way to them is
 * looked at once per agent, and its instruction file (AGENTS.md, else CLAUDE.md) joins the session's
 * instructions — once, within the caps — unless the read rules refuse it or it lies outside the project.
 */
export function createNestedLoader(o: NestedLoaderOptions): (paths: readonly string[]) => void {
  const seen = new Set<string>();
  let realRoot: string | undefined;
  // Where the file really is: a link out of the project is no project instruction.
  const inProject = (file: string) => {
    try {
      realRoot ??= realpathSync(o.root).replace(/\/?$/, sep);
      return realpathSync(file).startsWith(realRoot);
    } catch {
      return false;
    }
  };
  const look = (dir: string) => {
    const file = instructionCandidates(dir).find((f) => existsSync(f));
    if (file === undefined) return;
    const path = relative(o.root, file);
    const loaded = o.loaded();
    if (loaded.some((f) => f.path === path) || o.readDenied?.(file) || !inProject(file)) return;
    const read = readHead(file);
    if (typeof read === "string") return o.warn(`AGENTS.md skipped: cannot read ${path} (${read})`);
    const { text, cut } = capNested(read.head, read.size, nestedBytes(loaded));
    const joined: InstructionFile = { path, text, bytes: read.size, ...(cut ? { cut: true as const } : {}) };
    o.record(joined);
    if (cut) o.warn(cutNotice(joined));
  };
  return (paths) => {
    for (const path of paths) for (const dir of foldersBelow(o.root, path, seen)) look(dir);
  };
}

/** A regular file's size and first bytes (at most a file's cap), or why it cannot be read: never a throw into the loop. */
function readHead(file: string): { head: Uint8Array; size: number } | string {
  let fd: number | undefined;
  try {
    // Non-blocking: a FIFO named AGENTS.md must not hang the turn.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return "not a regular file";
    const head = new Uint8Array(Math.min(stat.size, NESTED_FILE_CAP));
    const got = readSync(fd, head, 0, head.length, 0);
    return { head: head.subarray(0, got), size: stat.size };
  } catch (err) {
    return (err as Error).message;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
