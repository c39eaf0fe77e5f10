import { realpathSync } from "node:fs";
import type { CheckpointStore } from "./checkpoint-store.ts";
import { MAX_KEPT_BYTES } from "./kept.ts";
import { openProjectState, type Change, type ProjectState } from "./project-state.ts";
import { emptyRecord, withChanges, type TurnRecord } from "./turn-record.ts";
import { formatBytes } from "../text/format-bytes.ts";

/**
 * The runtime's checkpoints: the project as each turn found it, and every change its tool calls made
 * — file tools and commands alike — recorded as it happens, so `undo` can put the files back. The
 * person's own changes between turns are seen too, and never taken for the turn's.
 */
export type Checkpoints = {
  /** Looks at the project as turn `turn` of `session` begins. */
  beginTurn(session: string, turn: number): void;
  /** After a call that may have written: records what it changed. */
  afterCall(): void;
  endTurn(): void;
  close(): void;
};

/** `dispose`: what closing also does (an `--ephemeral` run's store is a temporary folder, removed). */
export function createCheckpoints(o: { root: string; store: CheckpointStore; warn: (line: string) => void; maxBytes?: number; dispose?: () => void }): Checkpoints {
  let state: ProjectState | undefined;
  let record: TurnRecord | undefined;
  let root: string | undefined;
  const told = new Set<string>();
  const maxBytes = o.maxBytes ?? MAX_KEPT_BYTES;

  const tellBig = (changes: readonly Change[]) => {
    for (const c of changes) {
      const big = c.after?.kind === "big" ? c.after : c.before?.kind === "big" ? c.before : undefined;
      if (!big || told.has(c.path)) continue;
      told.add(c.path);
      o.warn(`checkpoint: ${c.path} (${formatBytes(big.size)}) is over the ${formatBytes(maxBytes)} a checkpoint keeps per file; undo cannot bring it back`);
    }
  };
  const record_ = (changes: readonly Change[]) => {
    if (!record || !changes.length) return;
    tellBig(changes);
    const had = Object.keys(record.changes).length;
    record = withChanges(record, changes);
    if (had || Object.keys(record.changes).length) o.store.write(record);
  };

  return {
    beginTurn(session, turn) {
      try {
        root ??= realpathSync(o.root);
        state ??= openProjectState({ root, blobs: o.store.blobs, cachePath: o.store.cachePath(root), exclude: [o.store.dir], maxBytes, warn: o.warn });
        // What changed since the last turn is the person's: it becomes this turn's starting point.
        state.refresh();
        record = emptyRecord(session, turn, root, new Date().toISOString());
      } catch (err) {
        record = undefined;
        o.warn(`checkpoint: could not look at the project (${(err as Error).message}); this turn cannot be undone`);
      }
    },
    afterCall() {
      if (!state || !record) return;
      try {
        record_(state.refresh());
      } catch (err) {
        o.warn(`checkpoint: could not record what the call changed (${(err as Error).message})`);
      }
    },
    endTurn() {
      this.afterCall();
      try {
        state?.save();
      } catch (err) {
        o.warn(`checkpoint: could not save what was seen (${(err as Error).message})`);
      }
      record = undefined;
    },
    close() {
      state?.close();
      state = undefined;
      o.dispose?.();
    },
  };
}
