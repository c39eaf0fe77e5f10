import type { Flags } from "./settings.ts";
import { UsageError } from "../exit/usage-error.ts";
import type { LiveSession } from "../store/live-session.ts";
import type { SessionMeta, SessionStore } from "../store/session-store.ts";

/** A new session, or the one `-c`/`-r` names, with interrupted calls given an outcome (never re-run). */
export async function openSession(
  store: SessionStore,
  opts: { flags: Pick<Flags, "continue" | "resume" | "model">; cwd: string; model: string; warn: (line: string) => void },
): Promise<LiveSession> {
  const { flags, cwd, warn } = opts;
  if (!flags.continue && !flags.resume) return store.create({ cwd, model: opts.model });
  const session = flags.resume ? await openById(store, await resolveId(store, flags.resume, warn), warn) : await openNewest(store, cwd, warn);
  if (flags.model && flags.model !== session.state.model) session.append({ type: "model", model: flags.model });
  return session;
}

export async function openById(store: SessionStore, id: string, warn: (line: string) => void): Promise<LiveSession> {
  const opened = await store.open(id, warn);
  if (!opened.ok) throw new UsageError(opened.error.message);
  return opened.session;
}

/** The newest session of this folder, whatever became of its last run; one that cannot be read at all stops here rather than continue an older one. */
async function openNewest(store: SessionStore, cwd: string, warn: (line: string) => void): Promise<LiveSession> {
  const opened = await store.openNewest(cwd, warn);
  if (!opened) throw new UsageError(`no saved session for ${cwd}; start one without -c`);
  if (!opened.ok) throw new UsageError(`the newest session here cannot be continued: ${opened.error.message} (shiro sessions lists the others; shiro -r <id> continues one)`);
  return opened.session;
}

export async function resolveId(store: SessionStore, prefix: string, warn: (line: string) => void): Promise<string> {
  const found = await store.resolvePrefix(prefix);
  if (found.kind === "one") return found.id;
  if (found.kind === "none") throw new UsageError(`no session matches "${prefix}" (see shiro sessions)`);
  found.warnings.forEach(warn);
  throw new AmbiguousSession(prefix, found.matches);
}

/** A prefix of more than one session's id: the matches go with the error, for the driver to list them. */
export class AmbiguousSession extends UsageError {
  constructor(
    prefix: string,
    readonly matches: SessionMeta[],
  ) {
    super(`"${prefix}" matches ${matches.length} sessions; give more of the id:`);
  }
}
