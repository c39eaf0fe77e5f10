import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSecretPath } from "../guard/secret-path.ts";

type Folder = { ctimeMs: number; ino: number; secrets: string[]; gits: string[]; folders: string[] };

/** What a scan found in the project: secret files (and `.ssh` folders), and git repositories (`.git` folders or files) at any depth. */
export type ProjectScan = { secrets: string[]; gits: string[] };

// A folder changed within this long of being read may change again within the same timestamp tick
// unseen (file times are coarse); such a folder is read again next time rather than trusted.
const RACY_MS = 100;

/**
 * Finds the project's secret files and `.ssh` folders (links too, ignored files too; not inside `.git`,
 * whose objects are not named after what they hold) and every `.git` in it. Scanned before and after
 * every command, so it remembers each folder by its inode and change time (ctime: a name added,
 * removed or renamed in a folder changes it, and unlike mtime no `touch -r` can set it back) and reads
 * again only those that changed. A scan of an unchanged tree costs one stat a folder. `isSecret`
 * decides what is secret (the built-in names, config's own, deny rules' paths).
 */
export function createSecretScanner(root: string, isSecret: (path: string) => boolean = isSecretPath) {
  const known = new Map<string, Folder>();
  const read = (dir: string, ctimeMs: number, ino: number): Folder => {
    const folder: Folder = { ctimeMs, ino, secrets: [], gits: [], folders: [] };
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return folder; // unreadable: a command cannot read it either
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.name === ".git") folder.gits.push(path);
      else if (isSecret(path)) folder.secrets.push(path);
      else if (entry.isDirectory()) folder.folders.push(path);
    }
    return folder;
  };
  const visit = (dir: string, out: ProjectScan, seen: Set<string>) => {
    const st = statSync(dir, { throwIfNoEntry: false });
    if (!st) return;
    seen.add(dir);
    let folder = known.get(dir);
    if (!folder || folder.ctimeMs !== st.ctimeMs || folder.ino !== st.ino) {
      folder = read(dir, st.ctimeMs, st.ino);
      if (Date.now() - st.ctimeMs > RACY_MS) known.set(dir, folder);
      else known.delete(dir);
    }
    out.secrets.push(...folder.secrets);
    out.gits.push(...folder.gits);
    for (const sub of folder.folders) visit(sub, out, seen);
  };
  return {
    scan(): ProjectScan {
      const out: ProjectScan = { secrets: [], gits: [] };
      const seen = new Set<string>();
      visit(root, out, seen);
      for (const dir of known.keys()) if (!seen.has(dir)) known.delete(dir);
      out.secrets.sort();
      out.gits.sort();
      return out;
    },
  };
}
