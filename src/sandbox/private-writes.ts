import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { quoteWords } from "../guard/quote-words.ts";
import { isInside } from "../files/project-paths.ts";
import type { SandboxLevel } from "./sandbox-mode.ts";

/**
 * A write outside the project "succeeds" into a folder private to the command (bwrap's /tmp and hidden
 * home, Landlock's TMPDIR) and is gone when it ends: the model is told where, or it believes the file is
 * there. At most this many are named; one more found says there are others.
 */
const NAMED = 5;

/**
 * What the sandbox's shell runs after the command (bwrap): the files and links left in its private
 * folders, at most NAMED + 1, on fd 5. Those folders start empty, and `-xdev` keeps out what is bound
 * into them (the project, the tool folders), so whatever is found, the command made. The command never gets fd 5.
 */
export const listPrivateWrites = (dirs: readonly string[]): string =>
  `{ find ${quoteWords(dirs)} -xdev \\( -type f -o -type l \\) -print | head -n ${NAMED + 1} >&5; } 2>/dev/null`;

/** The same for a folder shiro can read itself once the command has ended (Landlock's own folders); `skip`, what shiro put there. */
export function leftIn(dir: string, skip: ReadonlySet<string> = new Set(), found: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of names) {
    if (found.length > NAMED) break;
    const path = join(dir, name);
    if (skip.has(path)) continue;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st?.isDirectory()) leftIn(path, skip, found);
    else if (st?.isFile() || st?.isSymbolicLink()) found.push(path);
  }
  return found;
}

/** The line for the command's result, naming where the files went as the command saw it (`~/notes.txt`, `$TMPDIR/out`). */
export function privateWritesNote(paths: readonly string[], o: { home: string; tmp?: string; shm?: string; level: SandboxLevel }): string | undefined {
  if (paths.length === 0) return undefined;
  const shown = (path: string) =>
    o.tmp && isInside(path, o.tmp)
      ? `$TMPDIR${path.slice(o.tmp.length)}`
      : o.shm && isInside(path, o.shm)
        ? `/dev/shm${path.slice(o.shm.length)}`
        : isInside(path, o.home)
          ? `~${path.slice(o.home.length)}`
          : path;
  const names = paths.slice(0, NAMED).map(shown).join(", ") + (paths.length > NAMED ? " and more" : "");
  const keep = o.level === "workspace-write" ? " To keep a file, write it in the project." : "";
  return `It wrote ${names} outside the project, into folders private to this command: they are gone now that it has ended.${keep}`;
}
