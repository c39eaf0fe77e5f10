import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSecretPath } from "../guard/secret-path.ts";

type Folder = { mtimeMs: number; secrets: string[]; folders: string[] };

// A folder changed within this long of being read may change again within the same timestamp tick
// unseen (file times are coarse); such a folder is read again next time rather than trusted.
const RACY_MS = 100;

/**
 * Finds the project's secret files and `.ssh` folders (links too, ignored files too; not inside `.git`,
 * whose objects are not named after what they hold). Scanned before and after every command, so it
 * remembers each folder by its mtime and reads again only those that changed: a name added, removed or
 * renamed in a folder changes that folder's mtime. A scan of an unchanged tree costs one stat a folder.
 */
export function createSecretScanner(root: string, isSecret: (path: string) => boolean = isSecretPath) {
  const known = new Map<string, Folder>();
  const read = (dir: string, mtimeMs: number): Folder => {
    const folder: Folder = { mtimeMs, secrets: [], folders: [] };
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return folder; // unreadable: a command cannot read it either
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (isSecret(path)) folder.secrets.push(path);
      else if (entry.isDirectory() && entry.name !== ".git") folder.folders.push(path);
    }
    return folder;
  };
  const visit = (dir: string, out: string[], seen: Set<string>) => {
    const mtimeMs = statSync(dir, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined) return;
    seen.add(dir);
    let folder = known.get(dir);
    if (!folder || folder.mtimeMs !== mtimeMs) {
      folder = read(dir, mtimeMs);
      if (Date.now() - mtimeMs > RACY_MS) known.set(dir, folder);
      else known.delete(dir);
    }
    out.push(...folder.secrets);
    for (const sub of folder.folders) visit(sub, out, seen);
  };
  return {
    scan(): string[] {
      const out: string[] = [];
      const seen = new Set<string>();
      visit(root, out, seen);
      for (const dir of known.keys()) if (!seen.has(dir)) known.delete(dir);
      return out.sort();
    },
  };
}
