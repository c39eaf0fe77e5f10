import { rmSync } from "node:fs";
import { relative } from "node:path";
import { projectSecrets } from "./find-secrets.ts";

/**
 * After a command that could write the project: every secret file or `.ssh` folder that was not
 * there before is removed (a secret a command makes may be one it was steered to plant or to fill),
 * and returned relative to the root. A new `.ssh` folder goes whole.
 */
export function removeNewSecrets(root: string, before: ReadonlySet<string>): string[] {
  const removed: string[] = [];
  for (const path of projectSecrets(root).sort()) {
    if (before.has(path)) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed.map((path) => relative(root, path));
}
