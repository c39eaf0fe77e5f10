import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { projectKey } from "../store/project-key.ts";
import { atomicWriteSync } from "../store/atomic-write.ts";
import { createBlobStore, type BlobStore } from "./blob-store.ts";
import { turnRecordSchema, type TurnRecord } from "./turn-record.ts";

/**
 * `$SHIRO_HOME/checkpoints/` (0700): `blobs/` (file contents by hash), `projects/<key>.json` (what was
 * last seen of each project: the next run hashes only what changed), `turns/<session>/<turn>.json`
 * (what each turn changed), `journal/` (an undo under way). Nothing here is visible to a tool.
 */
export type CheckpointStore = {
  readonly dir: string;
  readonly blobs: BlobStore;
  cachePath(root: string): string;
  write(record: TurnRecord): void;
  /** The records of a session's turns, by turn; unreadable ones are skipped with a warning. */
  records(session: string, warn: (line: string) => void): Map<number, TurnRecord>;
  /** Drops a session's records (its log was removed). */
  drop(session: string): void;
  journalDir: string;
};

export function createCheckpointStore(dir: string): CheckpointStore {
  const turnsDir = (session: string) => join(dir, "turns", session);
  const ensure = (folder: string) => mkdirSync(folder, { recursive: true, mode: 0o700 });
  ensure(dir);
  // A store made by an older umask, or by hand: it holds copies of secrets, so it is the person's alone.
  // Changed only when it differs, so a read-only home can still be read (`shiro undo --list`).
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return {
    dir,
    blobs: createBlobStore(join(dir, "blobs"), join(dir, "key")),
    cachePath: (root) => join(dir, "projects", `${projectKey(root)}.json`),
    journalDir: join(dir, "journal"),
    write(record) {
      const path = join(turnsDir(record.session), `${record.turn}.json`);
      ensure(dirname(path));
      if (Object.keys(record.changes).length === 0) return rmSync(path, { force: true });
      atomicWriteSync(path, JSON.stringify(record));
    },
    records(session, warn) {
      const out = new Map<number, TurnRecord>();
      let names: string[];
      try {
        names = readdirSync(turnsDir(session));
      } catch {
        return out;
      }
      for (const name of names) {
        if (!/^\d+\.json$/.test(name)) continue;
        const path = join(turnsDir(session), name);
        try {
          const parsed = turnRecordSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
          if (parsed.success && parsed.data.session === session) out.set(parsed.data.turn, parsed.data);
          else warn(`skipping the checkpoint ${path}: it does not fit (${parsed.success ? "another session's" : parsed.error.issues[0]?.message})`);
        } catch (err) {
          warn(`skipping the checkpoint ${path}: ${(err as Error).message}`);
        }
      }
      return out;
    },
    drop: (session) => rmSync(turnsDir(session), { recursive: true, force: true }),
  };
}
