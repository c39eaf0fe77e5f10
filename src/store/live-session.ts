import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { HeldLock } from "./file-lock.ts";
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
  /** The lock that makes the file this process's while it is open. */
  held?: HeldLock;
};

export function liveSession(opts: LiveSessionOptions): LiveSession {
  const reducer = opts.existing ?? createSessionReducer();
  let unwritten: SessionEvent[] = opts.first ? [opts.first] : [];
  if (opts.first) reducer.apply(opts.first);
  let writer: LogWriter | undefined;
  let held = opts.held;

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
      if (!writer) {
        mkdirSync(dirname(opts.path), { recursive: true, mode: 0o700 });
        writer = openLogWriter(opts.path, opts.goodBytes === undefined ? {} : { truncateTo: opts.goodBytes });
      }
      writer.append([...unwritten, ...events.slice(0, applied)]);
      unwritten = [];
      if (failure) throw failure;
    },
    get written() {
      return writer?.written ?? 0;
    },
    close() {
      writer?.close();
      writer = undefined;
      if (held?.held) held.release();
      held = undefined;
    },
  };
}

/** The first line of a new session's log. */
export const sessionLine = (id: string, cwd: string, model: string, at: string, forkedFrom?: { id: string; events: number }): SessionEvent => ({
  type: "session",
  v: LOG_VERSION,
  id,
  at,
  cwd,
  model,
  ...(forkedFrom ? { forkedFrom } : {}),
});
