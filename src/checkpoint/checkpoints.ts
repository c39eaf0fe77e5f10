import { realpathSync } from "node:fs";
import { formatBytes } from "../text/format-bytes.ts";
import { refusedWrite } from "../store/writable-dir.ts";
import type { CheckpointStore } from "./checkpoint-store.ts";
import { MAX_KEPT_BYTES } from "./kept.ts";
import { openProjectState, type Change, type ProjectState } from "./project-state.ts";
import { emptyRecord, withChanges, type TurnRecord } from "./turn-record.ts";

/**
 * The runtime's checkpoints: the project as each turn found it, and every change its tool calls made
 * — file tools and commands alike — recorded as it happens, so `undo` can put the files back. The
 * person's own changes between turns are seen too, and never taken for the turn's.
 */
export type Checkpoints = {
  /**
   * Looks at the project as turn `turn` of `session` begins (a run's first look goes on in the
   * background: the model is called and read-only tools run meanwhile). Begun again before it ended —
   * a saved command's `` !`cmd` `` ran first — it goes on with what that recorded.
   */
  beginTurn(session: string, turn: number): void;
  /**
   * Settles when the turn's starting point is known: a call that may write may not run before (one
   * that only reads need not wait). Whatever changed until then, no call of the turn wrote: it is
   * the starting point, not the turn's.
   */
  ready(): Promise<void>;
  /** After a call that may have written: records what it changed. */
  afterCall(): void;
  endTurn(): void;
  close(): void;
};

export type CheckpointsOptions = {
  root: string;
  store: CheckpointStore;
  warn: (line: string) => void;
  maxBytes?: number;
  /** What closing also does (an `--ephemeral` run's store is a temporary folder, removed). */
  dispose?: () => void;
  /** False: look by walking (benchmarks time the fallback for systems without inotify). */
  watch?: boolean;
  /** A write of the store's refused by the file system (a full disk): told here instead of warned about, so one line says the home cannot be written. */
  onFsError?: (err: NodeJS.ErrnoException) => void;
};

// What was seen is saved for the next run at most this often while a run goes on (and when it ends).
const SAVE_EVERY_MS = 30_000;

export function createCheckpoints(o: CheckpointsOptions): Checkpoints {
  let state: ProjectState | undefined;
  let opening: Promise<void> | undefined;
  const stop = new AbortController();
  let record: TurnRecord | undefined;
  let closed = false;
  // The turn began before the first look ended: what changed until its first call that may write is its starting point.
  let unsettled = false;
  // No tool has run since the last look: the turn's end needs no look of its own (a walk, where there is no watch).
  let fresh = false;
  let savedAt = performance.now();
  const told = new Set<string>();
  const maxBytes = o.maxBytes ?? MAX_KEPT_BYTES;
  const failed = (what: string, err: unknown) =>
    o.onFsError && refusedWrite(err, o.store.dir) ? o.onFsError(err) : o.warn(`checkpoint: could not ${what} (${(err as Error).message})`);

  const tellBig = (changes: readonly Change[]) => {
    for (const c of changes) {
      const big = c.after?.kind === "big" ? c.after : c.before?.kind === "big" ? c.before : undefined;
      if (!big || big.size <= maxBytes || told.has(c.path)) continue;
      told.add(c.path);
      o.warn(`checkpoint: ${c.path} (${formatBytes(big.size)}) is over the ${formatBytes(maxBytes)} a checkpoint keeps per file; undo cannot bring it back`);
    }
  };
  const open = () => {
    const root = realpathSync(o.root);
    const cachePath = o.store.cachePath(root);
    const options = { root, blobs: o.store.blobs, cachePath, exclude: [o.store.dir], maxBytes, warn: o.warn, signal: stop.signal, ...(o.watch === false ? { watch: false } : {}) };
    return openProjectState(options).then(
      (opened) => {
        if (closed) return opened.close();
        state = opened;
        tellBig(opened.big().map((path) => ({ path, before: opened.get(path)! })));
      },
      (err) => {
        if (closed) return; // stopped: the run ended first
        record = undefined;
        failed("look at the project; this turn cannot be undone", err);
      },
    );
  };
  const settle = () => {
    if (!unsettled || !state) return;
    unsettled = false;
    state.refresh();
  };

  return {
    beginTurn(session, turn) {
      const begun = record?.session === session && record.turn === turn ? record : undefined;
      record = undefined;
      try {
        // What changed since the last turn (or the command's last look) is the person's: it becomes this turn's starting point.
        if (state) state.refresh();
        else opening ??= open();
        unsettled = !state;
        fresh = true;
        record = begun ?? emptyRecord(session, turn, realpathSync(o.root), new Date().toISOString());
      } catch (err) {
        failed("look at the project; this turn cannot be undone", err);
      }
    },
    ready: async () => {
      fresh = false;
      await opening;
      try {
        settle();
      } catch (err) {
        failed("look at the project; this turn cannot be undone", err);
      }
    },
    afterCall() {
      if (!state || !record) return;
      fresh = true;
      try {
        // A read-only command ran while the first look ended: nothing it did is the turn's.
        settle();
        const changes = state.refresh();
        if (!changes.length) return;
        tellBig(changes);
        const had = Object.keys(record.changes).length > 0;
        record = withChanges(record, changes);
        if (had || Object.keys(record.changes).length) o.store.write(record);
      } catch (err) {
        failed("record what the call changed", err);
      }
    },
    endTurn() {
      if (!fresh) this.afterCall();
      record = undefined;
      if (!state || performance.now() - savedAt < SAVE_EVERY_MS) return;
      try {
        state.save();
        savedAt = performance.now();
      } catch (err) {
        failed("save what was seen", err);
      }
    },
    close() {
      closed = true;
      // A first look still going is not finished for nothing: no call wrote, so there is nothing to undo.
      stop.abort();
      try {
        state?.close();
      } catch (err) {
        failed("save what was seen", err);
      }
      state = undefined;
      o.dispose?.();
    },
  };
}
