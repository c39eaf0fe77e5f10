import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { titleOf } from "./session-title.ts";
import type { SessionState } from "../session/reduce-session.ts";
import { runStateOf, type RunState } from "../session/run-state.ts";
import { readSessionLog, sessionIds, type ReadLog } from "./session-files.ts";
import type { IndexEntry, SessionIndex } from "./session-index.ts";
import { pricesKey } from "../pricing/cost.ts";
import { sessionTotals, type SessionTotals } from "../pricing/session-totals.ts";

/** A listed session: its index entry and what became of its last run. */
export type SessionMeta = IndexEntry & { state: RunState };

/** A session's listing entry, from its state (and the size of the log it was read from); `totals`, its messages' when already summed. */
export function entryOf(state: SessionState, opts: { damaged?: boolean; bytes?: number; totals?: SessionTotals } = {}): SessionMeta {
  const totals = opts.totals ?? sessionTotals(state.messages);
  return {
    id: state.id,
    cwd: resolve(state.cwd),
    model: state.model,
    title: titleOf(state.messages),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    messageCount: state.messages.length,
    usage: totals.usage,
    costUsd: totals.costUsd ?? null,
    prices: pricesKey(),
    answered: state.answered,
    state: opts.damaged ? "damaged" : runStateOf(state),
    ...(opts.bytes !== undefined ? { bytes: opts.bytes } : {}),
  };
}

/** The entry of a log as read: a damaged one is listed as what its valid part says, marked damaged. */
export const entryOfRead = (read: Extract<ReadLog, { ok: true }>, bytes?: number): SessionMeta =>
  entryOf(read.state, { damaged: read.damaged !== undefined, ...(bytes !== undefined ? { bytes } : {}) });

/** The state an entry of an older shiro stands for. */
export const metaOf = (entry: IndexEntry): SessionMeta => ({ ...entry, state: entry.state ?? (entry.answered === false ? "no-answer" : "answered") });

/** Every session of `dir` (logs and schema-1 files), as listing entries. Unreadable files and child agents' sessions (listed under their parent) are left out. */
export async function collectEntries(dir: string, sizeOf: (id: string) => number | undefined): Promise<SessionMeta[]> {
  const entries: SessionMeta[] = [];
  for (const id of await sessionIds(dir)) {
    const bytes = sizeOf(id);
    const read = await readSessionLog(dir, id);
    if (read.ok && !read.state.parent) entries.push(entryOfRead(read, bytes));
  }
  return entries;
}

/**
 * Enters every session of `dir` in the index, folder by folder: once, for a home whose sessions
 * predate the index.
 */
export async function buildIndex(entries: readonly SessionMeta[], index: SessionIndex): Promise<void> {
  const byFolder = new Map<string, IndexEntry[]>();
  for (const entry of entries) byFolder.set(entry.cwd, [...(byFolder.get(entry.cwd) ?? []), entry]);
  for (const [cwd, folder] of byFolder) await index.merge(cwd, folder);
  await mkdir(index.dir, { recursive: true, mode: 0o700 }); // even when there was nothing to enter: built once
}
