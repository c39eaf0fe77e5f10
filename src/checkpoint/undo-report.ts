import type { LiveTurn } from "../session/reduce-session.ts";
import { clipLine } from "../text/one-line.ts";
import { tally, type TurnRecord } from "./turn-record.ts";
import type { UndoDone } from "./undo-turns.ts";

/** A turn as `undo --list` and the picker show it: its number, prompt and what it changed. */
export type TurnRow = { turn: number; at: string; prompt: string; added: string[]; changed: string[]; removed: string[] };

export const turnRows = (turns: readonly LiveTurn[], records: ReadonlyMap<number, TurnRecord>): TurnRow[] =>
  turns.map((t) => {
    const record = records.get(t.turn);
    return { turn: t.turn, at: t.at, prompt: t.text, ...(record ? tally(record) : { added: [], changed: [], removed: [] }) };
  });

const MAX_NAMED = 4;
const named = (paths: readonly string[]) => (paths.length > MAX_NAMED ? `${paths.slice(0, MAX_NAMED).join(", ")} and ${paths.length - MAX_NAMED} more` : paths.join(", "));

/** `+2 ~1 -3: a.ts, b.ts, …` or `no file changes`. */
export function changesLine(row: Pick<TurnRow, "added" | "changed" | "removed">): string {
  const all = [...row.added, ...row.changed, ...row.removed];
  if (!all.length) return "no file changes";
  return `+${row.added.length} ~${row.changed.length} -${row.removed.length}: ${named(all)}`;
}

/** One line per turn, newest last. */
export const turnLine = (row: TurnRow, width = 100): string => `turn ${row.turn}  ${clipLine(row.prompt, Math.max(20, Math.min(60, width - 40)))}  · ${changesLine(row)}`;

/** What an undo did, in a line or three. */
export function undoneLines(done: UndoDone): string[] {
  const which = done.turns.length === 1 ? `turn ${done.turns[0]}` : `turns ${done.turns[0]}–${done.turns.at(-1)}`;
  const lines = [`undid ${which}: ${done.restored.length || done.removed.length ? [done.restored.length ? `restored ${named(done.restored)}` : "", done.removed.length ? `removed ${named(done.removed)}` : ""].filter(Boolean).join("; ") : "no files to put back"}`];
  if (done.lost.length) lines.push(`not restored (over the per-file cap when the turn began): ${named(done.lost)}`);
  if (done.kept) lines.push(`what it overwrote is kept in ${done.kept}`);
  return lines;
}
