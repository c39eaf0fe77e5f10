import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/**
 * The folders strictly below `root` on the way to `path` — the path itself included, as a folder a
 * call listed may be — outer first, that `seen` does not hold yet; they are added to it. A whole chain
 * is added at once, so a folder seen means its parents were: the common case (a path in a folder
 * already looked at) is one lookup, without a walk or a file system call, however long the session.
 */
export function foldersBelow(root: string, path: string, seen: Set<string>): string[] {
  const top = resolve(root);
  const abs = resolve(top, path);
  const rel = relative(top, abs);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return [];
  const fresh: string[] = [];
  for (let dir = abs; dir !== top && !seen.has(dir); dir = dirname(dir)) fresh.push(dir);
  for (const dir of fresh) seen.add(dir);
  return fresh.reverse();
}
