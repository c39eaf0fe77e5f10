import { copyFileSync, lstatSync, mkdirSync, readlinkSync, realpathSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SessionState } from "../session/reduce-session.ts";
import type { SessionEvent } from "../session/session-event.ts";
import type { SessionStore } from "../store/session-store.ts";
import type { CheckpointStore } from "./checkpoint-store.ts";
import { planUndo, type Conflict } from "./plan-undo.ts";
import { keptOnDisk } from "./read-kept.ts";
import { MAX_KEPT_BYTES } from "./kept.ts";
import type { TurnRecord } from "./turn-record.ts";
import { plural } from "../text/plural.ts";
import { applyJournal, clearTemps, endJournal, loadBlobs, unfinishedJournals, writeJournal, type UndoJournal } from "./undo-journal.ts";

export type UndoRequest = {
  session: SessionState;
  /** Undo this turn and every later one; the newest turn when absent. */
  turn?: number;
  /** Overwrite files changed since, keeping a copy of each under `keptDir`. */
  force?: boolean;
  store: CheckpointStore;
  /** Where `--force` keeps what it overwrites (a folder per undo is made in it). */
  keptDir: string;
  /** Appends to the session's log (the undo event). */
  append: (event: SessionEvent) => void;
  warn: (line: string) => void;
};

export type UndoDone = { ok: true; turns: number[]; restored: string[]; removed: string[]; lost: string[]; kept?: string };
export type UndoRefused = { ok: false; message: string; conflicts?: Conflict[] };

/** The records of a session's turns, its own and (for a copy) those of the session it continues. */
export function turnRecords(store: CheckpointStore, session: SessionState, warn: (line: string) => void): Map<number, TurnRecord> {
  const own = store.records(session.id, warn);
  if (!session.forkedFrom) return own;
  const inherited = store.records(session.forkedFrom.id, warn);
  for (const [turn, record] of own) inherited.set(turn, record);
  return inherited;
}

/**
 * Puts back the files the turns from `turn` on changed and takes those turns out of the history.
 * Refuses, changing nothing, when a file holds work done since (unless `force`) or a stored copy is
 * missing. The files are written through a journal first, so a kill part way is finished next time.
 */
export async function undoTurns(r: UndoRequest): Promise<UndoDone | UndoRefused> {
  const live = r.session.turns;
  if (!live.length) return { ok: false, message: "there is no turn to undo in this session" };
  const turn = r.turn ?? live.at(-1)!.turn;
  if (!live.some((t) => t.turn === turn)) return { ok: false, message: `turn ${turn} is not in this session's history (shiro undo --list shows the turns)` };
  const undone = live.filter((t) => t.turn >= turn).map((t) => t.turn);
  const all = turnRecords(r.store, r.session, r.warn);
  const records = undone.flatMap((t) => (all.has(t) ? [all.get(t)!] : []));
  const root = records[0]?.root ?? realpathSync(r.session.cwd);
  const plan = planUndo(records, (path) => keptOnDisk(root, path, r.store.blobs));
  if (plan.conflicts.length && !r.force) {
    const named = plan.conflicts.map((c) => `${c.path} (${c.why})`).join(", ");
    return { ok: false, conflicts: plan.conflicts, message: `nothing was changed: ${plural(plan.conflicts.length, "file")} changed after the turn${undone.length > 1 ? "s" : ""} being undone: ${named}. Keep that work, or run undo with --force (it keeps a copy of each)` };
  }
  if (plan.conflicts.length) {
    const targets = new Map(records.sort((a, b) => a.turn - b.turn).reverse().flatMap((rec) => Object.entries(rec.changes).map(([path, c]) => [path, c.before] as const)));
    for (const c of plan.conflicts) plan.writes.push({ path: c.path, to: targets.get(c.path) ?? null });
  }
  const journal: UndoJournal = { v: 1, id: Bun.randomUUIDv7().replace(/-/g, "").slice(-12), root, session: r.session.id, turn, writes: plan.writes, at: new Date().toISOString() };
  const blobs = loadBlobs(journal.writes, r.store.blobs);
  if ("missing" in blobs) return { ok: false, message: `nothing was changed: the stored copy of ${blobs.missing} is missing from ${r.store.blobs.dir}` };
  // What is overwritten and has no stored copy — work done since (--force), or a file over the cap — is kept first.
  const unstored = new Set([...plan.conflicts.map((c) => c.path), ...plan.writes.filter((w) => sizeOnDisk(join(root, w.path)) > MAX_KEPT_BYTES).map((w) => w.path)]);
  const kept = unstored.size ? keepCopies(root, [...unstored], join(r.keptDir, new Date().toISOString().replace(/[:.]/g, "-"))) : undefined;
  writeJournal(r.store.journalDir, journal);
  await applyJournal(journal, blobs.bytes);
  r.append({ type: "undo", turn, at: new Date().toISOString() });
  endJournal(r.store.journalDir, journal);
  return {
    ok: true,
    turns: undone,
    restored: plan.writes.filter((w) => w.to !== null).map((w) => w.path),
    removed: plan.writes.filter((w) => w.to === null).map((w) => w.path),
    lost: plan.lost,
    ...(kept ? { kept } : {}),
  };
}

/** A path's size, 0 when nothing (or a folder where a file was) is there. */
function sizeOnDisk(path: string): number {
  try {
    return lstatSync(path).size;
  } catch {
    return 0;
  }
}

/** Copies each path as it is now (a link as a link) under `dir`; the paths that were there. */
function keepCopies(root: string, paths: readonly string[], dir: string): string {
  for (const path of paths) {
    const from = join(root, path);
    let stats;
    try {
      stats = lstatSync(from);
    } catch {
      continue; // nothing there (or a file where a folder was): nothing to keep
    }
    if (!stats.isFile() && !stats.isSymbolicLink()) continue;
    const to = join(dir, path);
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
    if (stats.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else copyFileSync(from, to);
  }
  return dir;
}

/**
 * Finishes the undos a killed shiro left for `root`: the files are written as the journal says and the
 * turns leave the history of their session (`open` gives it, when no other shiro has it open).
 */
export type OpenForUndo = (id: string) => Promise<{ state: SessionState; append(event: SessionEvent): void; close(): void } | undefined>;

/** A session opened for an undo: it must be that very log, so one another shiro has open is refused, not copied. */
export const openForUndo =
  (store: SessionStore, warn: (line: string) => void): OpenForUndo =>
  async (id) => {
    const opened = await store.open(id, warn, { copyIfOpen: false });
    return opened.ok ? opened.session : undefined;
  };

export async function finishUndos(r: { store: CheckpointStore; root: string; open: OpenForUndo; warn: (line: string) => void }): Promise<number> {
  let finished = 0;
  for (const journal of unfinishedJournals(r.store.journalDir, r.warn)) {
    if (journal.root !== r.root) continue;
    const blobs = loadBlobs(journal.writes, r.store.blobs);
    if ("missing" in blobs) {
      r.warn(`an interrupted undo cannot be finished: the stored copy of ${blobs.missing} is missing`);
      continue;
    }
    clearTemps(journal);
    await applyJournal(journal, blobs.bytes);
    const session = await r.open(journal.session);
    try {
      if (session?.state.turns.some((t) => t.turn === journal.turn)) session.append({ type: "undo", turn: journal.turn, at: new Date().toISOString() });
    } finally {
      session?.close();
    }
    endJournal(r.store.journalDir, journal);
    r.warn(`finished an undo that was interrupted: ${journal.writes.length} file(s) of session ${journal.session.slice(0, 8)} put back`);
    finished++;
  }
  return finished;
}

