import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILD } from "../version.ts";
import { createCheckpointStore, type CheckpointStore } from "../checkpoint/checkpoint-store.ts";
import { createSessionStore, type SessionStore } from "../store/session-store.ts";
import { cannotWrite, fsErrorWords, isFsError } from "../store/writable-dir.ts";
import { createUnsavedStore } from "../store/unsaved-store.ts";

export type Stores = { store: SessionStore; checkpointStore: CheckpointStore; disposeCheckpoints?: () => void };

/**
 * Where the run keeps its session and checkpoints. `--ephemeral`, or a `$SHIRO_HOME` where nothing
 * can be written (read-only, full): sessions are only read, and the checkpoints go to a temporary
 * folder removed at the end — one warning line says so, and the run goes on. A write that fails
 * later (the disk fills up during the run) leaves the rest of the run unsaved, said once too.
 */
export function openStores(home: string, ephemeral: boolean, warn: (line: string) => void): Stores {
  const temporary = () => {
    const dir = mkdtempSync(join(tmpdir(), "shiro-checkpoints-"));
    return { checkpointStore: createCheckpointStore(dir), disposeCheckpoints: () => rmSync(dir, { recursive: true, force: true }) };
  };
  if (ephemeral) return { store: createUnsavedStore(), ...temporary() };
  const sessionsDir = join(home, "sessions");
  const why = cannotWrite(sessionsDir);
  if (why) {
    warn(`cannot save in ${home} (${why}); this run goes on unsaved, as with --ephemeral`);
    return { store: createSessionStore(sessionsDir, { save: false }), ...temporary() };
  }
  const store = createSessionStore(sessionsDir, {
    ...(BUILD ? { measuresBuild: BUILD } : {}),
    onUnsaved: (err) => warn(`could not save in ${home} (${fsErrorWords(err)}); the rest of this run goes on unsaved`),
  });
  try {
    return { store, checkpointStore: createCheckpointStore(join(home, "checkpoints")) };
  } catch (err) {
    if (!isFsError(err)) throw err;
    warn(`cannot keep checkpoints in ${join(home, "checkpoints")} (${fsErrorWords(err)}); this run's are kept in a temporary folder, removed at the end`);
    return { store, ...temporary() };
  }
}
