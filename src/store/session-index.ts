import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { atomicWrite } from "./atomic-write.ts";
import { withFileLock } from "./file-lock.ts";
import { projectKey } from "./project-key.ts";
import { readJson } from "./read-json.ts";
import { sessionFacts } from "./session-facts.ts";
import { RUN_STATES, type RunState } from "../session/run-state.ts";

/** What a listing shows of one session, kept in its folder's index so nothing else need be read. */
export const indexEntrySchema = z.object({
  ...sessionFacts,
  /** false: no call of the session has completed yet (written for shiros that hid such sessions). */
  answered: z.boolean().optional(),
  /** What became of the last run (absent in entries of older shiros: taken from `answered`). */
  state: z.enum(RUN_STATES as [RunState, ...RunState[]]).optional(),
  /** The log's size when this entry was written: a log of another size has changed since, and is read again to list it. */
  bytes: z.number().int().nonnegative().optional(),
  /** The prices its cost was summed with (`pricesKey`). */
  prices: z.string().optional(),
});
export type IndexEntry = z.infer<typeof indexEntrySchema>;

const folderIndexSchema = z.object({ cwd: z.string(), sessions: z.array(indexEntrySchema) });

/** Newest first; the id breaks a tie so the order never depends on how the file was read. */
export const newestFirst = (a: IndexEntry, b: IndexEntry) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1);

export type IndexRead = { entries: IndexEntry[]; warnings: string[]; missing: boolean };

/**
 * One small file per project folder (`index/<key>.json`) listing that folder's sessions, so
 * `shiro -c` and `shiro sessions` read what this folder has, not every session there is. Each change
 * rewrites just that file, atomically and under a lock (two shiros may finish turns at once).
 */
export function createSessionIndex(sessionsDir: string) {
  const dir = join(sessionsDir, "index");
  const pathFor = (cwd: string) => join(dir, `${projectKey(resolve(cwd))}.json`);

  async function read(path: string): Promise<IndexRead> {
    const found = await readJson(path, folderIndexSchema);
    if (found.ok) return { entries: found.value.sessions, warnings: [], missing: false };
    if (found.reason === "missing") return { entries: [], warnings: [], missing: true };
    return { entries: [], warnings: [`skipping a session index: ${found.message}`], missing: false };
  }

  const index = {
    dir,
    /** This folder's sessions, newest first. `missing`: no index yet (sessions from before it existed may be unlisted). */
    forFolder: (cwd: string) => read(pathFor(cwd)),

    /** Every folder's sessions, newest first. */
    async all(): Promise<IndexRead> {
      let names: string[] = [];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith(".json"));
      } catch {
        return { entries: [], warnings: [], missing: true };
      }
      const reads = await Promise.all(names.map((n) => read(join(dir, n))));
      return { entries: reads.flatMap((r) => r.entries).sort(newestFirst), warnings: reads.flatMap((r) => r.warnings), missing: names.length === 0 };
    },

    /** Adds or replaces a session's entry in its folder's index. */
    put: (entry: IndexEntry) => merge(entry.cwd, [entry]),

    /**
     * Adds entries to a folder's index; an entry already there stays unless the new one is newer.
     * (Building the index from the files and a turn ending in another shiro may race: neither is lost.)
     */
    merge: (cwd: string, entries: IndexEntry[]) => merge(cwd, entries),
  };
  return index;

  async function merge(cwd: string, entries: IndexEntry[]): Promise<void> {
    const path = pathFor(cwd);
    await withFileLock(path, async () => {
      const byId = new Map((await read(path)).entries.map((e) => [e.id, e]));
      for (const entry of entries) {
        const known = byId.get(entry.id);
        if (!known || known.updatedAt <= entry.updatedAt) byId.set(entry.id, entry);
      }
      await atomicWrite(path, JSON.stringify({ cwd: resolve(cwd), sessions: [...byId.values()].sort(newestFirst) }));
    });
  }
}

export type SessionIndex = ReturnType<typeof createSessionIndex>;
