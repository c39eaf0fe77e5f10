import { sameKept, type Kept } from "./kept.ts";
import type { TurnRecord } from "./turn-record.ts";

/** A path undo will not touch, and why: it holds work done after the turn (the person's, another process's). */
export type Conflict = { path: string; why: string };

export type UndoPlan = {
  /** Each path and what it goes back to (null: it did not exist, so it is removed). */
  writes: { path: string; to: Kept | null }[];
  conflicts: Conflict[];
  /** Paths the turns changed that cannot be brought back: they were over the size cap when the first of them began. */
  lost: string[];
};

const keptOrNone = (k: Kept | null) => k ?? undefined;

/** Whether what is on disk is what the turn left; a file too large to keep matches by size alone (it has no hash). */
const matches = (now: Kept | undefined, left: Kept | undefined) =>
  sameKept(now, left) || (now?.kind === "big" && left?.kind === "big" && now.size === left.size);

/**
 * What undoing `records` (the turns being undone that changed files, in any order) writes, given what
 * each path holds now. Pure. A path goes back to what it held before the first of the turns that
 * changed it — but only if it still holds what the last of them left, and nothing changed it between
 * them: otherwise it is a conflict, and the caller changes nothing.
 */
export function planUndo(records: readonly TurnRecord[], current: (path: string) => Kept | undefined): UndoPlan {
  const byTurn = [...records].sort((a, b) => a.turn - b.turn);
  const paths = [...new Set(byTurn.flatMap((r) => Object.keys(r.changes)))].sort();
  const plan: UndoPlan = { writes: [], conflicts: [], lost: [] };
  for (const path of paths) {
    const touches = byTurn.filter((r) => Object.hasOwn(r.changes, path));
    const first = touches[0]!;
    const last = touches.at(-1)!;
    const target = first.changes[path]!.before;
    if (target?.kind === "big") {
      plan.lost.push(path);
      continue;
    }
    const between = touches.findIndex((r, i) => i > 0 && !matches(keptOrNone(r.changes[path]!.before), keptOrNone(touches[i - 1]!.changes[path]!.after)));
    const now = current(path);
    if (sameKept(now, keptOrNone(target))) continue;
    if (between > 0) {
      plan.conflicts.push({ path, why: `changed between turns ${touches[between - 1]!.turn} and ${touches[between]!.turn}` });
      continue;
    }
    if (!matches(now, keptOrNone(last.changes[path]!.after))) {
      plan.conflicts.push({ path, why: now === undefined ? `removed since turn ${last.turn}` : `changed since turn ${last.turn}` });
      continue;
    }
    plan.writes.push({ path, to: target });
  }
  return plan;
}
