import { lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

type Folder = { ctimeMs: number; ino: number; linked: { path: string; id: string }[]; folders: string[] };

// A folder changed within this long of being read may change again within the same timestamp tick unseen: read again next time.
const RACY_MS = 100;

/** A file's identity (device and inode): every hard link of it has the same. */
export const fileId = (st: { dev: number; ino: number }): string => `${st.dev}:${st.ino}`;

/**
 * The paths under `top` that are hard links of a secret file — another name for the same bytes, which
 * a mask by path would miss (`ln .env notes.txt`, made before the run). Asked with the identities of
 * the secrets that have more than one link (a secret with one link has no other name, so most runs
 * never walk). The walk remembers each folder by inode and change time (a link made or removed
 * changes its folder) and the files in it with more than one link, so a later walk stats only the
 * folders that changed. `.git` is passed over: its objects are no secret's other name.
 */
export function createSecretLinks(top: string): (secrets: ReadonlyMap<string, string>) => string[] {
  const known = new Map<string, Folder>();
  const read = (dir: string, ctimeMs: number, ino: number): Folder => {
    const folder: Folder = { ctimeMs, ino, linked: [], folders: [] };
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return folder;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git") folder.folders.push(path);
      } else if (entry.isFile()) {
        const st = lstatSync(path, { throwIfNoEntry: false });
        if (st && st.nlink > 1) folder.linked.push({ path, id: fileId(st) });
      }
    }
    return folder;
  };
  const visit = (dir: string, found: { path: string; id: string }[], seen: Set<string>) => {
    const st = statSync(dir, { throwIfNoEntry: false });
    if (!st) return;
    seen.add(dir);
    let folder = known.get(dir);
    if (!folder || folder.ctimeMs !== st.ctimeMs || folder.ino !== st.ino) {
      folder = read(dir, st.ctimeMs, st.ino);
      if (Date.now() - st.ctimeMs > RACY_MS) known.set(dir, folder);
      else known.delete(dir);
    }
    found.push(...folder.linked);
    for (const sub of folder.folders) visit(sub, found, seen);
  };
  return (secrets) => {
    if (secrets.size === 0) return [];
    const found: { path: string; id: string }[] = [];
    const seen = new Set<string>();
    visit(top, found, seen);
    for (const dir of known.keys()) if (!seen.has(dir)) known.delete(dir);
    return found.filter(({ path, id }) => secrets.has(id) && secrets.get(id) !== path).map(({ path }) => path);
  };
}

/** Identity → path of each secret file with more than one link (the only ones with another name to find). */
export function linkedSecrets(files: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const path of files) {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile() && st.nlink > 1 && !ids.has(fileId(st))) ids.set(fileId(st), path);
  }
  return ids;
}

/** The secret file `path` is another name of (a hard link), or undefined: what the file tools ask before reading or writing a path. */
export function secretLinkOf(path: string, secrets: ReadonlyMap<string, string>): string | undefined {
  if (secrets.size === 0) return undefined;
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st?.isFile() || st.nlink < 2) return undefined;
  const secret = secrets.get(fileId(st));
  return secret !== undefined && secret !== path ? secret : undefined;
}
