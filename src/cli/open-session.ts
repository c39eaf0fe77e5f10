import type { Flags } from "./args.ts";
import { UsageError } from "./usage-error.ts";
import { repairPending } from "../store/repair-pending.ts";
import type { Session } from "../store/session-file.ts";
import type { SessionStore } from "../store/session-store.ts";
import { sessionsTable } from "../store/list-sessions-view.ts";

/** A new session, or the one `-c`/`-r` names, with interrupted calls given a result (never re-run). */
export async function openSession(
  store: SessionStore,
  opts: { flags: Pick<Flags, "continue" | "resume" | "model">; cwd: string; model: string; warn: (line: string) => void },
): Promise<Session> {
  const { flags, cwd, warn } = opts;
  if (!flags.continue && !flags.resume) return store.create({ cwd, model: opts.model });
  const id = flags.resume ? await resolveId(store, flags.resume, warn) : await newestId(store, cwd, warn);
  return loadById(store, id, flags.model, warn);
}

export async function loadById(store: SessionStore, id: string, model: string | undefined, warn: (line: string) => void): Promise<Session> {
  const loaded = await store.load(id);
  if (!loaded.ok) throw new UsageError(loaded.error.message);
  const session = loaded.session;
  const { messages, repaired } = repairPending(session.messages);
  session.messages = messages;
  if (repaired.length) warn(`${repaired.length} tool call(s) were interrupted when this session last ran; the model is told their outcome is unknown`);
  if (model) session.model = model;
  return session;
}

async function newestId(store: SessionStore, cwd: string, warn: (line: string) => void): Promise<string> {
  const { session, warnings } = await store.newestFor(cwd);
  warnings.forEach(warn);
  if (!session) throw new UsageError(`no saved session for ${cwd}; start one without -c`);
  return session.id;
}

export async function resolveId(store: SessionStore, prefix: string, warn: (line: string) => void): Promise<string> {
  const found = await store.resolvePrefix(prefix);
  if (found.kind === "one") return found.id;
  if (found.kind === "none") throw new UsageError(`no session matches "${prefix}" (see shiro sessions)`);
  found.warnings.forEach(warn);
  throw new UsageError(`"${prefix}" matches ${found.matches.length} sessions; give more of the id:\n${sessionsTable(found.matches, new Date(), found.matches.length, process.stdout.columns || Infinity)}`);
}
