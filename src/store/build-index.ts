import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { titleOf } from "./session-title.ts";
import type { SessionState } from "../session/reduce-session.ts";
import { readSessionLog, sessionIds } from "./session-files.ts";
import type { IndexEntry, SessionIndex } from "./session-index.ts";
import { sessionTotals } from "./session-totals.ts";

/** A session's listing entry, from its state. */
export function entryOf(state: SessionState): IndexEntry {
  const totals = sessionTotals(state.messages);
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
    answered: state.answered,
  };
}

/**
 * Enters every session of `dir` (logs and schema-1 files) in the index, folder by folder:
 * once, for a home whose sessions predate the index. Unreadable files are left out (listing skips them anyway).
 */
export async function buildIndex(dir: string, index: SessionIndex): Promise<void> {
  const byFolder = new Map<string, IndexEntry[]>();
  for (const id of await sessionIds(dir)) {
    const read = await readSessionLog(dir, id);
    if (!read.ok) continue;
    const entry = entryOf(read.state);
    byFolder.set(entry.cwd, [...(byFolder.get(entry.cwd) ?? []), entry]);
  }
  for (const [cwd, entries] of byFolder) await index.merge(cwd, entries);
  await mkdir(index.dir, { recursive: true }); // even when there was nothing to enter: built once
}
