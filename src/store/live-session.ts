import { mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import type { HeldLock } from "./file-lock.ts";
import type { SessionMeasures } from "./measure-cache.ts";
import { createSessionReducer, type SessionReducer, type SessionState } from "../session/reduce-session.ts";
import { openLogWriter, type LogWriter } from "../session/session-log.ts";
import { LOG_VERSION, type SessionEvent } from "../session/session-event.ts";

/**
 * A session this process works on: its state, always the log's events reduced, and the one way to
 * change it — `append`, which writes the events (one write) and then applies them. A new session
 * touches the disk only with its first append; the file is this process's alone while it is open.
 */
export type LiveSession = {
  readonly id: string;
  readonly path: string;
  readonly state: SessionState;
  append(...events: SessionEvent[]): void;
  /** Bytes this process appended (benchmarks measure writes with it). */
  readonly written: number;
  /** False once nothing more reaches the disk: an unsaved run's session, or one whose write failed. */
  readonly saving: boolean;
  /** A resumed session's wire measures kept beside its log (`measure-cache.ts`). */
  readonly measures?: SessionMeasures;
  close(): void;
};

export type LiveSessionOptions = {
  path: string;
  /** The log already on disk (a resumed session), reduced as it was read: it goes on from there. */
  existing?: SessionReducer;
  /** A new session: its first line, written with the first append. */
  first?: SessionEvent;
  /** A torn last line lies past this many bytes: cut off before appending. */
  goodBytes?: number;
  measures?: SessionMeasures;
  /** The lock that makes the file this process's while it is open. */
  held?: HeldLock;
  /** Kept in memory only, never written (an `--ephemeral` run, a `$SHIRO_HOME` that cannot be written). */
  unsaved?: boolean;
  /**
   * A write failed with a file system error (a full disk, a home gone read-only). What it half
   * wrote is taken back, and the session goes on in memory: told once, here. Without it, it throws.
   */
  onWriteError?: (err: NodeJS.ErrnoException) => void;
  /** Asked before each write: false once the home is known not to take writes (another write failed), and then nothing more is written. */
  stillSaving?: () => boolean;
  /**
   * Asked when a new session stops being saved: false and its log is removed, so no log is left
   * that nothing lists (`-c` would pass over it). Without it, only a log with no line yet is.
   */
  listed?: () => boolean;
};

export function liveSession(opts: LiveSessionOptions): LiveSession {
  const reducer = opts.existing ?? createSessionReducer();
  let unwritten: SessionEvent[] = opts.first ? [opts.first] : [];
  if (opts.first) reducer.apply(opts.first);
  let writer: LogWriter | undefined;
  let held = opts.held;
  let saving = !opts.unsaved;
  let bytes = 0;

  const release = () => {
    if (held?.held) held.release();
    held = undefined;
  };
  const stopSaving = (err?: NodeJS.ErrnoException) => {
    if (writer) bytes += writer.written;
    writer?.close();
    writer = undefined;
    // A new log this process never got a line into, or that nothing lists yet, is not left behind.
    if (opts.first && (bytes === 0 || opts.listed?.() === false)) rmSync(opts.path, { force: true });
    release();
    saving = false;
    unwritten = [];
    if (err) opts.onWriteError!(err);
  };

  return {
    get id() {
      return reducer.state!.id;
    },
    path: opts.path,
    get state() {
      return reducer.state!;
    },
    append(...events) {
      // Applied before written: an impossible event (a bug) throws here and never reaches the log,
      // while those before it in the batch are written, so the file and the state never disagree.
      let applied = 0;
      let failure: unknown;
      for (const event of events) {
        try {
          reducer.apply(event);
          applied++;
        } catch (err) {
          failure = err;
          break;
        }
      }
      if (saving && opts.stillSaving?.() === false) stopSaving();
      if (saving)
        try {
          if (!writer) {
            mkdirSync(dirname(opts.path), { recursive: true, mode: 0o700 });
            writer = openLogWriter(opts.path, opts.goodBytes === undefined ? {} : { truncateTo: opts.goodBytes });
          }
          writer.append([...unwritten, ...events.slice(0, applied)]);
          unwritten = [];
        } catch (err) {
          if (!opts.onWriteError || typeof (err as NodeJS.ErrnoException).code !== "string") throw err;
          stopSaving(err as NodeJS.ErrnoException);
        }
      if (failure) throw failure;
    },
    get written() {
      return bytes + (writer?.written ?? 0);
    },
    get saving() {
      return saving;
    },
    ...(opts.measures ? { measures: opts.measures } : {}),
    close() {
      if (writer) bytes += writer.written;
      writer?.close();
      writer = undefined;
      release();
    },
  };
}

/** The first line of a new session's log. */
export const sessionLine = (id: string, cwd: string, model: string, at: string, forkedFrom?: { id: string; events: number }, parent?: { id: string; callId: string }): SessionEvent => ({
  type: "session",
  v: LOG_VERSION,
  id,
  at,
  cwd,
  model,
  ...(forkedFrom ? { forkedFrom } : {}),
  ...(parent ? { parent } : {}),
});
