import type { Session } from "./session-file.ts";
import type { SaveConflict, SessionStore } from "./session-store.ts";

/**
 * Saves `session`; when another process changed its file since this copy was loaded (two `shiro -c`
 * on one session), the copy continues under a new id instead, so both writers' turns stay on disk.
 * The session is renamed in place because the agent loop and the UI hold this very object.
 * Returns the conflict that caused a fork, if there was one.
 */
export async function saveOrFork(store: SessionStore, session: Session): Promise<{ forkedFrom?: SaveConflict }> {
  const saved = await store.save(session);
  if (saved.ok) return {};
  session.id = Bun.randomUUIDv7();
  delete session.onDisk;
  const forked = await store.save(session);
  // A fresh id has no file another process could have written; failing here means the folder is broken.
  if (!forked.ok) throw new Error(forked.error.message);
  return { forkedFrom: saved.error };
}
