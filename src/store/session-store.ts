import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { SessionState } from "../session/reduce-session.ts";
import { createTotalsMemo } from "./totals-memo.ts";
import { INTERRUPTED_OUTPUT } from "../session/messages.ts";
import { holdLock, type HeldLock } from "./file-lock.ts";
import { newSessionMeasures, sessionMeasures } from "./measure-cache.ts";
import { liveSession, sessionLine, type LiveSession, type LiveSessionOptions } from "./live-session.ts";
import { buildIndex, collectEntries, entryOf, entryOfRead, metaOf, type SessionMeta } from "./build-index.ts";
import { convertLegacy, legacyPath, logPath, readSessionLog, sessionIds, type ReadLog } from "./session-files.ts";
import { createSessionIndex, newestFirst, type IndexEntry } from "./session-index.ts";
import { isFsError } from "./writable-dir.ts";

export type { SessionMeta } from "./build-index.ts";

/** Every session listed, whatever became of its last run (`state`), newest first. */
export type Listed = { sessions: SessionMeta[]; warnings: string[] };

export type Resolution =
  | { kind: "one"; id: string }
  | { kind: "none"; prefix: string }
  | { kind: "ambiguous"; prefix: string; matches: SessionMeta[]; warnings: string[] };

/** `damaged`: asked for that very log (an undo), which has a bad line; anything else continues its valid part. */
export type OpenError = { kind: "missing" | "corrupt" | "busy" | "damaged"; message: string };
export type Opened = { ok: true; session: LiveSession } | { ok: false; error: OpenError };

export type SessionStore = {
  dir: string;
  /**
   * False when nothing is written: an `--ephemeral` run's store, one whose `$SHIRO_HOME` cannot be
   * written, or one whose write failed during the run. Sessions are still read, listed and continued.
   */
  readonly saves: boolean;
  /** A new session, this process's from now on; nothing is written before its first event. */
  /** A new session; `parent`: the session and call of the agent that starts it (a child agent's, listed under it, not among the folder's). */
  create(opts: { cwd: string; model: string; parent?: { id: string; callId: string } }): Promise<LiveSession>;
  /**
   * A saved session, to go on with. Calls the last run left unfinished get their outcome (unknown,
   * never re-run). If another live shiro has it open, this one continues a copy under a new id — or,
   * with `copyIfOpen: false` (an undo, which must change that very session), it is `busy`. A log
   * with a bad line is continued from the lines before it, as a copy under a new id that names it:
   * the damaged file is never changed.
   */
  open(id: string, warn: (line: string) => void, opts?: { copyIfOpen?: boolean }): Promise<Opened>;
  /** A session's state without taking it (inspect). */
  read(id: string): Promise<ReadLog>;
  /** Bytes of a session's log on disk; undefined without one (a schema-1 session not yet converted). */
  sizeOf(id: string): number | undefined;
  /** This folder's sessions, newest first; every folder's with `all`. A log changed since its entry was written is read again. */
  list(opts: { cwd: string; all?: boolean }): Promise<Listed>;
  /**
   * Opens the newest session of this folder (`-c`), whatever became of its last run; undefined when
   * there is none. One whose log is gone is passed over with a warning; one that cannot be read at
   * all is an error, never a reason to continue an older one.
   */
  openNewest(cwd: string, warn: (line: string) => void): Promise<Opened | undefined>;
  /** By full id or unique prefix (case-insensitive). */
  resolvePrefix(prefix: string): Promise<Resolution>;
  /** Updates the session's listing entry; at the end of each turn. */
  remember(state: SessionState): Promise<void>;
  /** Another write to the home failed (a checkpoint, say): nothing more is saved, said once, as a failed write of the store's own. */
  stopSaving(err: NodeJS.ErrnoException): void;
};

export type SessionStoreOptions = {
  /** False: read sessions, never write (a `$SHIRO_HOME` that cannot be written). Default true. */
  save?: boolean;
  /** A write failed during the run: from then on nothing is written. Said once, by the caller. */
  onUnsaved?: (err: NodeJS.ErrnoException) => void;
  /** The build whose wire measures a resumed session reads and keeps beside its log; none, no cache. */
  measuresBuild?: string;
};

export function createSessionStore(dir: string, options: SessionStoreOptions = {}): SessionStore {
  const index = createSessionIndex(dir);
  let saving = options.save ?? true;
  const lost = (err: NodeJS.ErrnoException) => {
    if (!saving) return;
    saving = false;
    options.onUnsaved?.(err);
  };
  /** Logs this process entered in the index. */
  const remembered = new Set<string>();
  const totals = createTotalsMemo();
  /** The entry `-c` chose a session by, until it is opened. */
  const listedAs = new Map<string, IndexEntry>();
  const sizeOf = (id: string): number | undefined => {
    try {
      return statSync(logPath(dir, id)).size;
    } catch {
      return undefined;
    }
  };
  /** Sessions written before the index existed are entered once, the first time anything is listed; unsaved, they are read each time. */
  let unindexed: Promise<SessionMeta[] | undefined> | undefined;
  const ensureIndex = () =>
    (unindexed ??= (async () => {
      if (existsSync(index.dir)) return undefined;
      const entries = await collectEntries(dir, sizeOf);
      if (!saving) return entries;
      try {
        await buildIndex(entries, index);
        return undefined;
      } catch (err) {
        if (!isFsError(err)) throw err;
        return entries;
      }
    })());
  const fromLogs = (entries: SessionMeta[], cwd: string | undefined) => entries.filter((e) => cwd === undefined || e.cwd === resolve(cwd)).sort(newestFirst);
  const entriesFor = async (cwd: string | undefined) => {
    const unlisted = await ensureIndex();
    if (unlisted) return { entries: fromLogs(unlisted, cwd), warnings: [] };
    const read = cwd === undefined ? await index.all() : await index.forFolder(cwd);
    if (!read.warnings.length) return read;
    // An index is only a listing: a damaged one is passed over, the logs say what sessions there are, and it is made again from them.
    const entries = fromLogs(await collectEntries(dir, sizeOf), cwd);
    if (saving && cwd !== undefined) await index.merge(cwd, entries).catch((err) => (isFsError(err) ? lost(err) : Promise.reject(err)));
    return { entries, warnings: read.warnings.map((w) => `${w}; listed from the logs instead`) };
  };
  /** The lock, or undefined once the home turned out not to take it (the session then goes on unsaved). */
  const hold = async (path: string): Promise<HeldLock | undefined> => {
    if (!saving) return undefined;
    try {
      return await holdLock(path);
    } catch (err) {
      if (!isFsError(err)) throw err;
      lost(err);
      return undefined;
    }
  };
  /** Saved while this store saves and the lock is held; otherwise in memory only. */
  const live = (path: string, from: Pick<LiveSessionOptions, "existing" | "first" | "goodBytes" | "measures">, held: HeldLock | undefined) => {
    const build = options.measuresBuild;
    // A new log (a new session, a copy) stores its measures too, so that its first resume need not measure.
    if (!from.measures && from.first && build) from = { ...from, measures: newSessionMeasures(path, build) };
    return held ? liveSession({ ...from, path, held, onWriteError: lost, stillSaving: () => saving, listed: () => remembered.has(path) }) : liveSession({ ...from, path, unsaved: true });
  };

  /** A listing entry as the log now stands: read again when its size is not the one the entry was written at. */
  const fresh = async (entry: SessionMeta): Promise<SessionMeta | undefined> => {
    const size = sizeOf(entry.id);
    if (size === undefined) return existsSync(legacyPath(dir, entry.id)) ? entry : undefined; // gone: not listed
    if (entry.bytes === undefined || entry.bytes === size) return entry;
    const read = await readSessionLog(dir, entry.id);
    return read.ok ? entryOfRead(read, size) : { ...entry, state: "damaged" };
  };

  const store: SessionStore = {
    dir,
    get saves() {
      return saving;
    },
    async create({ cwd, model, parent }) {
      const id = Bun.randomUUIDv7();
      const path = logPath(dir, id);
      return live(path, { first: sessionLine(id, resolve(cwd), model, new Date().toISOString(), undefined, parent) }, await hold(path));
    },

    async open(id, warn, opts) {
      const path = logPath(dir, id);
      // Held before the log is read: what is read is then all there is, and no other shiro appends after it.
      const held = await hold(path);
      const release = () => held?.held && held.release();
      if (held && !held.held && opts?.copyIfOpen === false)
        return { ok: false, error: { kind: "busy", message: `session ${id} is open in another shiro${held.pid ? ` (pid ${held.pid})` : ""}; use /undo there, or end it first` } };
      collectBeforeLongLog(sizeOf(id));
      const read = await readSessionLog(dir, id, options.measuresBuild ? { measuresBuild: options.measuresBuild } : {});
      if (!read.ok) {
        release();
        return { ok: false, error: { kind: read.kind, message: read.message } };
      }
      const { damaged, state } = read;
      const listing = listedAs.get(id);
      listedAs.delete(id);
      if (listing && read.prefix) totals.listed(listing, read.prefix.bytes, state);
      if (damaged && opts?.copyIfOpen === false) {
        release();
        return { ok: false, error: { kind: "damaged", message: `${damagedWords(id, damaged)}; shiro -r ${id} continues the lines before it as a new session` } };
      }
      read.warnings.forEach(warn);
      // Two shiros appending to one log would interleave two histories, and a damaged log is never written to: a copy.
      const copy = damaged ? "damaged" : held && !held.held ? "busy" : undefined;
      let session: LiveSession;
      if (!copy) {
        if (read.legacy && held?.held)
          await convertLegacy(dir, id, read.events).catch((err) => {
            if (!isFsError(err)) throw err;
            release();
            lost(err);
          });
        const build = options.measuresBuild;
        // Not spread: `events` is parsed when first asked for.
        const { prefix, measureFile, snapshot } = read;
        const measures = build && !read.legacy ? { measures: sessionMeasures(path, build, { state, ...(prefix ? { prefix } : {}), ...(measureFile ? { measureFile } : {}), ...(snapshot !== undefined ? { snapshot } : {}) }) } : {};
        session = live(path, { existing: read.reducer, ...(read.goodBytes !== undefined ? { goodBytes: read.goodBytes } : {}), ...measures }, saving ? held : undefined);
      } else {
        release();
        const fork = Bun.randomUUIDv7();
        const forkPath = logPath(dir, fork);
        const first = sessionLine(fork, state.cwd, state.model, new Date().toISOString(), { id, events: read.events.length });
        session = live(forkPath, { first }, await hold(forkPath));
        session.append(...read.events.slice(1));
        warn(
          damaged
            ? `${damagedWords(id, damaged)}; continuing from the ${read.events.length} lines before it as a new session, ${fork} (the damaged log is left as it is)`
            : `session ${id} is open in another shiro${held?.held === false && held.pid ? ` (pid ${held.pid})` : ""}; continuing as ${fork}, and both are kept`,
        );
      }
      repairInterrupted(session, warn);
      return { ok: true, session };
    },

    read: (id) => readSessionLog(dir, id),
    sizeOf,

    async list({ cwd, all }) {
      const read = await entriesFor(all ? undefined : cwd);
      const sessions = (await Promise.all(read.entries.map((e) => fresh(metaOf(e))))).filter((e) => e !== undefined);
      return { sessions: sessions.sort(newestFirst), warnings: read.warnings };
    },

    async openNewest(cwd, warn) {
      const { entries, warnings } = await entriesFor(cwd);
      warnings.forEach(warn);
      // Opened, not read first to see whether it can be: a long log is read once.
      for (const meta of entries) {
        listedAs.set(meta.id, meta);
        const opened = await store.open(meta.id, warn);
        if (opened.ok || opened.error.kind !== "missing") return opened;
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
        if (read.ok) metas.push(entryOfRead(read));
        else warnings.push(`skipping session ${id}: ${read.message}`);
      }
      return { kind: "ambiguous", prefix, matches: metas.sort(newestFirst), warnings };
    },

    async remember(state) {
      // A child agent's session is found through its parent's, not in the folder's list (nor by -c).
      if (!saving || state.parent) return;
      if (await ensureIndex()) return; // the index could not be made: listed from the logs
      const bytes = sizeOf(state.id);
      try {
        await index.put(entryOf(state, { ...(bytes === undefined ? {} : { bytes }), totals: totals.of(state) }));
        remembered.add(logPath(dir, state.id));
      } catch (err) {
        if (!isFsError(err)) throw err;
        lost(err);
      }
    },

    stopSaving: (err) => lost(err),
  };
  return store;
}

// Past this, a log's objects outgrow the collector's first allowance of a cold process.
const LONG_LOG_BYTES = 1 << 20;
// Up to this, the heap is what start-up loaded: a full collection costs ~3 ms. Past it (a REPL's /resume, a process that did more), ~10 ms and more, and is left to the collector.
const SMALL_HEAP_BYTES = 8 << 20;

/**
 * Before a long log is read at start-up, a full collection while the heap holds little more than
 * the loaded code (~3 ms): left to itself, the collector's first full one comes mid-request with
 * the whole log in memory (~10 ms), and the collections after this one are young ones.
 */
function collectBeforeLongLog(bytes: number | undefined) {
  if (bytes !== undefined && bytes > LONG_LOG_BYTES && process.memoryUsage().heapUsed < SMALL_HEAP_BYTES) Bun.gc(true);
}

const damagedWords = (id: string, damaged: { line: number; reason: string }) => `session ${id} is damaged at line ${damaged.line} of its log (${damaged.reason})`;

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
