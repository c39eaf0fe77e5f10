import { join, resolve } from "node:path";
import { atomicWrite } from "./atomic-write.ts";
import { projectKey } from "./project-key.ts";
import { withFileLock, type LockOptions } from "./file-lock.ts";
import { readJson } from "./read-json.ts";
import {
  addEntry,
  countHits,
  matchEntries,
  memoryFileSchema,
  partitionForget,
  rankEntries,
  type MemoryEntry,
  type MemoryKind,
} from "./memory-entries.ts";

/** The memory file exists but cannot be read; shiro will not write over it until the person acts. */
export class MemoryStoreError extends Error {
  override name = "MemoryStoreError";
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export type MemorySnapshot = { entries: MemoryEntry[]; warning?: string };
export type AddResult = { ok: true; entry: MemoryEntry } | { ok: false; message: string };
export type RecallResult = { matches: MemoryEntry[]; total: number };

export type MemoryStore = {
  readonly path: string;
  /** Never throws for a bad file: a corrupt one reads as empty with a warning for the person. */
  read(): Promise<MemorySnapshot>;
  list(): Promise<MemoryEntry[]>;
  /** The `n` most recalled entries, then the most recent. */
  top(n: number): Promise<MemoryEntry[]>;
  add(kind: MemoryKind, text: string): Promise<AddResult>;
  /** Entries containing every term, best first, at most `limit`; each returned one gains a hit on disk. */
  recall(query: string, limit?: number): Promise<RecallResult>;
  /** Removes entries containing `text`; returns them. */
  forget(text: string): Promise<MemoryEntry[]>;
  /**
   * Writes the result of a `/memory` merge computed from `basis`. Entries added since `basis` was read
   * are kept, entries forgotten since are not resurrected, and hits counted since are carried over.
   */
  replaceAll(next: readonly MemoryEntry[], basis: readonly MemoryEntry[]): Promise<void>;
};

/** `<home>/memory/<first 16 hex of sha256(absolute project path)>.json` */
export function memoryFilePath(home: string, projectPath: string): string {
  return join(home, "memory", `${projectKey(resolve(projectPath))}.json`);
}

/**
 * The project's notes. Every change is lock → re-read → apply → atomic write → unlock, so two
 * shiro processes in the same project never lose each other's notes.
 */
export function createMemoryStore(home: string, projectPath: string, lock: LockOptions = {}): MemoryStore {
  const path = memoryFilePath(home, projectPath);
  const project = resolve(projectPath);

  const read = async (): Promise<MemorySnapshot> => {
    const result = await readJson(path, memoryFileSchema);
    if (result.ok) return { entries: result.value.entries };
    if (result.reason === "missing") return { entries: [] };
    return { entries: [], warning: `project memory ignored: ${result.message}. Fix or delete the file; shiro will not overwrite it.` };
  };

  /** Applies `change` to the current entries under the lock; `undefined` from it means "no write". */
  const mutate = <T>(change: (entries: MemoryEntry[]) => { entries?: MemoryEntry[]; result: T }): Promise<T> =>
    withFileLock(
      path,
      async () => {
        const current = await readJson(path, memoryFileSchema);
        if (!current.ok && current.reason === "corrupt") {
          throw new MemoryStoreError(`project memory is unreadable, so nothing was changed: ${current.message}. Ask the person to fix or delete it.`, path);
        }
        const { entries, result } = change(current.ok ? current.value.entries : []);
        if (entries) await atomicWrite(path, `${JSON.stringify({ version: 1, project, entries }, null, 2)}\n`);
        return result;
      },
      lock,
    );

  return {
    path,
    read,
    list: async () => (await read()).entries,
    top: async (n) => rankEntries((await read()).entries).slice(0, n),

    add: (kind, text) =>
      mutate<AddResult>((entries) => {
        const outcome = addEntry(entries, kind, text, new Date());
        return outcome.ok ? { entries: outcome.entries, result: { ok: true, entry: outcome.entry } } : { result: outcome };
      }),

    recall: (query, limit = 20) =>
      mutate<RecallResult>((entries) => {
        const all = matchEntries(entries, query);
        const chosen = all.slice(0, limit);
        if (chosen.length === 0) return { result: { matches: [], total: 0 } };
        const ids = new Set(chosen.map((e) => e.id));
        const updated = countHits(entries, ids, new Date());
        return { entries: updated, result: { matches: rankEntries(updated.filter((e) => ids.has(e.id))), total: all.length } };
      }),

    forget: (text) =>
      mutate((entries) => {
        const { removed, kept } = partitionForget(entries, text);
        return removed.length ? { entries: kept, result: removed } : { result: removed };
      }),

    replaceAll: (next, basis) =>
      mutate((entries) => {
        const basisIds = new Set(basis.map((e) => e.id));
        const nowById = new Map(entries.map((e) => [e.id, e]));
        const survivors = next
          .filter((e) => !basisIds.has(e.id) || nowById.has(e.id))
          .map((e) => {
            const now = nowById.get(e.id);
            return now && now.hits > e.hits ? { ...e, hits: now.hits, lastHitAt: now.lastHitAt } : e;
          });
        const addedSince = entries.filter((e) => !basisIds.has(e.id));
        return { entries: [...survivors, ...addedSince], result: undefined };
      }),
  };
}
