import { z } from "zod";
import { keptSchema, sameKept } from "./kept.ts";
import type { Change } from "./project-state.ts";

const side = keptSchema.nullable();

/**
 * What one turn changed in its project: for each path, what it held when the turn began (`before`)
 * and what the turn left (`after`); null is "no such file". Paths the turn changed and changed back
 * are not in it.
 */
export const turnRecordSchema = z.object({
  v: z.literal(1),
  session: z.string(),
  turn: z.number().int().positive(),
  root: z.string(),
  at: z.string(),
  changes: z.record(z.string(), z.object({ before: side, after: side })),
});
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export const emptyRecord = (session: string, turn: number, root: string, at: string): TurnRecord => ({ v: 1, session, turn, root, at, changes: {} });

/** The record with `changes` (from one look) added; pure. A path back to what it held when the turn began drops out. */
export function withChanges(record: TurnRecord, changes: readonly Change[]): TurnRecord {
  const next = { ...record.changes };
  for (const change of changes) {
    const before = Object.hasOwn(next, change.path) ? next[change.path]!.before : (change.before ?? null);
    const after = change.after ?? null;
    if (sameKept(before ?? undefined, after ?? undefined)) delete next[change.path];
    else next[change.path] = { before, after };
  }
  return { ...record, changes: next };
}

/** The counts a list shows: files the turn made, changed and removed. */
export function tally(record: TurnRecord): { added: string[]; changed: string[]; removed: string[] } {
  const out = { added: [] as string[], changed: [] as string[], removed: [] as string[] };
  for (const [path, { before, after }] of Object.entries(record.changes).sort(([a], [b]) => (a < b ? -1 : 1))) {
    (before === null ? out.added : after === null ? out.removed : out.changed).push(path);
  }
  return out;
}

