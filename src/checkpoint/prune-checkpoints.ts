import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CheckpointStore } from "./checkpoint-store.ts";
import type { Kept } from "./kept.ts";

export type Pruned = { sessions: number; blobs: number; bytes: number };

// A blob younger than this may belong to a run still going (its records and cache not yet on disk).
const YOUNG_MS = 60 * 60 * 1000;

/**
 * Removes the records of sessions whose log is gone from `sessionsDir`, then every blob that no record,
 * saved project look or unfinished undo names (and that is over an hour old).
 */
export function pruneCheckpoints(store: CheckpointStore, sessionsDir: string, now = Date.now()): Pruned {
  const pruned: Pruned = { sessions: 0, blobs: 0, bytes: 0 };
  const logs = new Set(list(sessionsDir).map((name) => name.replace(/\.(jsonl|json)$/, "")));
  const turns = join(store.dir, "turns");
  for (const session of list(turns)) {
    if (logs.has(session)) continue;
    store.drop(session);
    pruned.sessions++;
  }
  const live = new Set<string>();
  const keep = (k: Kept | null | undefined) => k?.kind === "file" && live.add(k.hash);
  for (const session of list(turns))
    for (const record of store.records(session, () => {}).values()) for (const c of Object.values(record.changes)) (keep(c.before), keep(c.after));
  // Saved looks and journals are read as plain JSON: one that cannot be read names nothing, and its blobs stay.
  const named = (file: string) => {
    try {
      for (const m of readFileSync(file, "utf8").matchAll(/"hash":"([0-9a-f]{64})"/g)) live.add(m[1]!);
    } catch {
      // Gone meanwhile.
    }
  };
  for (const name of list(join(store.dir, "projects"))) named(join(store.dir, "projects", name));
  for (const name of list(store.journalDir)) named(join(store.journalDir, name));
  for (const folder of list(store.blobs.dir)) {
    for (const rest of list(join(store.blobs.dir, folder))) {
      const path = join(store.blobs.dir, folder, rest);
      if (live.has(folder + rest)) continue;
      const stats = statSync(path, { throwIfNoEntry: false });
      if (!stats || now - stats.mtimeMs < YOUNG_MS) continue;
      rmSync(path, { force: true });
      pruned.blobs++;
      pruned.bytes += stats.size;
    }
  }
  return pruned;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
