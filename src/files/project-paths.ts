import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** Resolves a path against the project root (whether it may go outside is the gate's call). */
export const resolveIn = (root: string, path: string): string => resolve(root, path);

/** A path the model gave: `~` and `~/x` are the home, as the gate judged them, not a folder `~` in the project. */
export const modelPath = (root: string, path: string): string => resolve(root, path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path);

/** Whether absolute `path` is `dir` or lies under it (a name such as `..cache` is under it). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

/** `to` relative to `from`, with `/` separators on every platform (what globs and .gitignore rules match). */
export const relativePosix = (from: string, to: string): string => relative(from, to).split(sep).join("/");

/** How a path is shown back to the model: relative to the root when inside it, absolute otherwise. */
export function displayPath(root: string, absolute: string): string {
  return isInside(absolute, root) ? relativePosix(root, absolute) || "." : absolute;
}
