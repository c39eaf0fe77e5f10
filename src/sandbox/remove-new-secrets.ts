import { rmSync } from "node:fs";
import { relative } from "node:path";

/**
 * After a command that could write the project: every secret file or `.ssh` folder found `after` it
 * that was not there `before` is removed (a secret a command makes may be one it was steered to plant
 * or to fill), and named relative to the root. A new `.ssh` folder goes whole.
 */
export function removeNewSecrets(root: string, before: readonly string[], after: readonly string[]): string[] {
  const old = new Set(before);
  const added = after.filter((path) => !old.has(path));
  for (const path of added) rmSync(path, { recursive: true, force: true });
  return added.map((path) => relative(root, path));
}
