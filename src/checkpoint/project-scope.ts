import { readdirSync, lstatSync, type Stats } from "node:fs";
import { join } from "node:path";
import { loadIgnore, type Ignore } from "../files/walk-files.ts";
import { isInside } from "../files/project-paths.ts";

/** What of the repository's own folder a checkpoint keeps: the index and the refs (branches, the stash, their logs). */
const GIT_FILES = new Set(["HEAD", "ORIG_HEAD", "index", "packed-refs"]);
const GIT_FOLDERS = new Set(["refs", "logs"]);

/**
 * Which paths of a project a checkpoint holds: every file and symlink outside `.git` folders — ignored
 * files too (a `.env` is what undo must not lose) but not inside a folder `.gitignore` names (the large
 * generated ones: node_modules, build output) — and the top repository's index and refs. `exclude`:
 * folders kept out whatever they are (the checkpoint store itself, when it lies in the project).
 */
export type ProjectScope = {
  readonly root: string;
  holds(rel: string, isDir: boolean): boolean;
  /** The files and links held in `from` (a folder inside the scope, "" for the root) and below it, each with its lstat; `onFolder` hears of each folder listed. */
  entries(from: string, onFolder: (abs: string, rel: string) => void): Generator<[string, Stats]>;
};

export function projectScope(root: string, exclude: readonly string[] = []): ProjectScope {
  const ignore: Ignore = loadIgnore(root);
  const excluded = exclude.filter((dir) => isInside(dir, root));
  const holds = (rel: string, isDir: boolean): boolean => {
    const parts = rel.split("/");
    if (parts[0] === ".git") {
      if (parts.length === 1) return isDir;
      if (parts.length === 2) return isDir ? GIT_FOLDERS.has(parts[1]!) : GIT_FILES.has(parts[1]!);
      return GIT_FOLDERS.has(parts[1]!);
    }
    if (parts.includes(".git")) return false;
    if (excluded.length && excluded.some((dir) => isInside(join(root, rel), dir))) return false;
    return !isDir || !ignore.ignores(rel, true);
  };

  // A generator, so one walk serves a look that must finish now and one that lets the event loop run.
  const entries: ProjectScope["entries"] = function* (from, onFolder) {
    const stack = [from];
    while (stack.length) {
      const rel = stack.pop()!;
      const abs = rel === "" ? root : join(root, rel);
      let entries;
      try {
        entries = readdirSync(abs, { withFileTypes: true });
      } catch {
        continue; // gone meanwhile, or unreadable: nothing here to keep
      }
      onFolder(abs, rel);
      for (const entry of entries) {
        const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (holds(path, true)) stack.push(path);
        } else if ((entry.isFile() || entry.isSymbolicLink()) && holds(path, false)) {
          let stats: Stats;
          try {
            stats = lstatSync(join(root, path));
          } catch {
            continue; // removed between the listing and the stat: it is simply not there
          }
          yield [path, stats];
        }
      }
    }
  };
  return { root, holds, entries };
}
