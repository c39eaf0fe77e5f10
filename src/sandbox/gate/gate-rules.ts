import { E } from "./gate-calls.ts";

/**
 * What the gate holds, as facts it can check on a call: the secret files by identity (device and
 * inode, so a hard link or a rename is the same secret), the masked folders and the read-only places
 * by real path (latin1, as the kernel names them). Pure: every answer is 0 (go ahead) or an errno.
 */
export type GateRules = {
  secretIds: ReadonlySet<string>;
  masked: readonly string[];
  readOnly: readonly string[];
  /** The command's own folder for `/dev/shm` (gate/process-paths.ts). */
  shm?: string;
  /** Offline: where a Unix socket may be reached by path (the project, the added folders, the command's own); abstract ones only where Landlock scopes them. */
  sockets?: { places: readonly string[]; abstract: boolean };
};

export const idOf = (st: { dev: number | bigint; ino: number | bigint }): string => `${Number(st.dev)}:${Number(st.ino)}`;

const inside = (path: string, place: string) => path === place || path.startsWith(place === "/" ? "/" : `${place}/`);
const under = (path: string, places: readonly string[]) => places.some((place) => inside(path, place));

/** Opening to read: a secret, or anything in a masked folder, is refused as bwrap's mask would show it (no access). */
export function readRefusal(rules: GateRules, id: string, real: string | undefined): number {
  if (rules.secretIds.has(id)) return E.EACCES;
  return real !== undefined && under(real, rules.masked) ? E.EACCES : 0;
}

/** Writing, truncating or removing an existing entry, or making one at `real`. */
export function changeRefusal(rules: GateRules, real: string, id?: string): number {
  if ((id !== undefined && rules.secretIds.has(id)) || under(real, rules.masked)) return E.EACCES;
  return under(real, rules.readOnly) ? E.EROFS : 0;
}

/**
 * Renaming away or removing `real`: as a change, and never a folder that holds a protected place
 * (`mv .git .git2` would let a new `.git/config` be written where the old one was kept).
 */
export function moveRefusal(rules: GateRules, real: string, id?: string): number {
  const changed = changeRefusal(rules, real, id);
  if (changed) return changed;
  return [...rules.readOnly, ...rules.masked].some((place) => inside(place, real)) ? E.EBUSY : 0;
}

/** Connecting to the Unix socket at `real` (or an abstract one, `real` undefined): refused unless it is one of the command's own. */
export function connectRefusal(rules: GateRules, real: string | undefined): number {
  if (!rules.sockets) return 0;
  if (real === undefined) return rules.sockets.abstract ? 0 : E.EACCES;
  return under(real, rules.sockets.places) ? 0 : E.EACCES;
}

/** Whether the gate must look at an opened file's real path at all (a masked folder to be inside of). */
export const needsRealPath = (rules: GateRules): boolean => rules.masked.length > 0;
