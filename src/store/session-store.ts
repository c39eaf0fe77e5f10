import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { SessionState } from "../session/reduce-session.ts";
import { INTERRUPTED_OUTPUT } from "../session/messages.ts";
import { holdLock } from "./file-lock.ts";
import { liveSession, sessionLine, type LiveSession } from "./live-session.ts";
import { buildIndex, entryOf } from "./build-index.ts";
import { convertLegacy, logPath, readSessionLog, sessionIds, type ReadLog } from "./session-files.ts";
import { createSessionIndex, newestFirst, type IndexEntry } from "./session-index.ts";

/** What `/sessions` shows about a session. */
export type SessionMeta = IndexEntry;

/** `unanswered`: runs that ended before any answer, kept on disk but not listed. */
export type Listed = { sessions: SessionMeta[]; unanswered: SessionMeta[]; warnings: string[] };

export type Resolution =
  | { kind: "one"; id: string }
  | { kind: "none"; prefix: string }
  | { kind: "ambiguous"; prefix: string; matches: SessionMeta[]; warnings: string[] };

export type OpenError = { kind: "missing" | "corrupt" | "busy"; message: string };

export type SessionStore = {
  dir: string;
  /** A new session, this process's from now on; nothing is written before its first event. */
  create(opts: { cwd: string; model: string }): Promise<LiveSession>;
  /**
   * A saved session, to go on with. Calls the last run left unfinished get their outcome (unknown,
   * never re-run). If another live shiro has it open, this one continues a copy under a new id — or,
   * with `copyIfOpen: false` (an undo, which must change that very session), it is `busy`.
   */
  open(id: string, warn: (line: string) => void, opts?: { copyIfOpen?: boolean }): Promise<{ ok: true; session: LiveSession } | { ok: false; error: OpenError }>;
  /** A session's state without taking it (inspect). */
  read(id: string): Promise<ReadLog>;
  /** This folder's answered sessions, newest first; every folder's with `all`. */
  list(opts: { cwd: string; all?: boolean }): Promise<Listed>;
  /** Opens the newest answered session of this folder that can be opened (`-c`); unreadable ones are skipped with a warning. */
  openNewest(cwd: string, warn: (line: string) => void): Promise<LiveSession | undefined>;
  /** By full id or unique prefix (case-insensitive), answered or not. */
  resolvePrefix(prefix: string): Promise<Resolution>;
  /** Updates the session's listing entry; at the end of each turn. */
  remember(state: SessionState): Promise<void>;
};

export function createSessionStore(dir: string): SessionStore {
  const index = createSessionIndex(dir);
  // Sessions written before the index existed are entered once, the first time anything is listed.
  const ensureIndex = async () => {
    if (!existsSync(index.dir)) await buildIndex(dir, index);
  };

  const store: SessionStore = {
    dir,
    async create({ cwd, model }) {
      const id = Bun.randomUUIDv7();
      const path = logPath(dir, id);
      return liveSession({ path, first: sessionLine(id, resolve(cwd), model, new Date().toISOString()), held: await holdLock(path) });
    },

    async open(id, warn, opts) {
      const path = logPath(dir, id);
      // Held before the log is read: what is read is then all there is, and no other shiro appends after it.
      const held = await holdLock(path);
      if (!held.held && opts?.copyIfOpen === false)
        return { ok: false, error: { kind: "busy", message: `session ${id} is open in another shiro${held.pid ? ` (pid ${held.pid})` : ""}; use /undo there, or end it first` } };
      const read = await readSessionLog(dir, id);
      if (!read.ok) {
        if (held.held) held.release();
        return { ok: false, error: { kind: read.kind, message: read.message } };
      }
      read.warnings.forEach(warn);
      if (read.legacy && held.held) await convertLegacy(dir, id, read.events);
      let session: LiveSession;
      if (held.held) session = liveSession({ path, existing: read.reducer, ...(read.goodBytes !== undefined ? { goodBytes: read.goodBytes } : {}), held });
      else {
        // Two shiros appending to one log would interleave two histories: this one takes a copy.
        const fork = Bun.randomUUIDv7();
        const forkPath = logPath(dir, fork);
        const { state } = read;
        const first = sessionLine(fork, state.cwd, state.model, new Date().toISOString(), { id, events: read.events.length });
        session = liveSession({ path: forkPath, first, held: await holdLock(forkPath) });
        session.append(...read.events.slice(1));
        warn(`session ${id} is open in another shiro${held.pid ? ` (pid ${held.pid})` : ""}; continuing as ${fork}, and both are kept`);
      }
      repairInterrupted(session, warn);
      return { ok: true, session };
    },

    read: (id) => readSessionLog(dir, id),

    async list({ cwd, all }) {
      await ensureIndex();
      const read = all ? await index.all() : await index.forFolder(cwd);
      return { sessions: read.entries.filter((e) => e.answered !== false), unanswered: read.entries.filter((e) => e.answered === false), warnings: read.warnings };
    },

    async openNewest(cwd, warn) {
      const { sessions, warnings } = await store.list({ cwd });
      warnings.forEach(warn);
      // Opened, not read first to see whether it can be: a long log is read once.
      for (const meta of sessions) {
        const opened = await store.open(meta.id, warn);
        if (opened.ok) return opened.session;
        warn(`skipping session ${meta.id}: ${opened.error.message}`);
      }
      return undefined;
    },

    async resolvePrefix(prefix) {
      const wanted = prefix.trim().toLowerCase();
      const matches = wanted ? (await sessionIds(dir)).filter((id) => id.startsWith(wanted)) : [];
      if (matches.length === 1) return { kind: "one", id: matches[0]! };
      if (matches.length === 0) return { kind: "none", prefix };
      const warnings: string[] = [];
      const metas: SessionMeta[] = [];
      for (const id of matches) {
        const read = await readSessionLog(dir, id);
        if (read.ok) metas.push(entryOf(read.state));
        else warnings.push(`skipping session ${id}: ${read.message}`);
      }
      return { kind: "ambiguous", prefix, matches: metas.sort(newestFirst), warnings };
    },

    async remember(state) {
      await ensureIndex();
      await index.put(entryOf(state));
    },
  };
  return store;
}

/**
 * The last run died mid-call or mid-tool: the call in flight ends as aborted and every tool call left
 * without a result gets one saying its outcome is unknown, so nothing is ever run twice.
 */
function repairInterrupted(session: LiveSession, warn: (line: string) => void) {
  const { state } = session;
  const last = state.callLog.calls.at(-1);
  const at = new Date().toISOString();
  if (last && !last.response) session.append({ type: "response", step: state.callLog.calls.length, status: "aborted", at });
  const pending = [...state.pending];
  if (!pending.length) return;
  session.append(...pending.map((callId) => ({ type: "result" as const, callId, output: INTERRUPTED_OUTPUT, isError: true as const })));
  warn(`${pending.length} tool call(s) were interrupted when this session last ran; the model is told their outcome is unknown`);
}
