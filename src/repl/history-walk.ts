/**
 * Walking the prompt history with ↑ and ↓. What was typed before the first ↑ is kept: it filters the
 * walk (only entries starting with it are offered) and ↓ past the newest gives it back.
 * Pure: `entries` is oldest first, and the walk is a value.
 */
export type HistoryWalk = { readonly typed: string; readonly at: number };

/** Not walking: `at` is one past the newest entry. */
export const startWalk = (entries: readonly string[], typed: string): HistoryWalk => ({ typed, at: entries.length });

/** The older entry to show, or undefined when there is none. */
export function older(entries: readonly string[], walk: HistoryWalk, shown: string): { walk: HistoryWalk; text: string } | undefined {
  for (let i = walk.at - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.startsWith(walk.typed) && entry !== shown) return { walk: { ...walk, at: i }, text: entry };
  }
  return undefined;
}

/** The newer entry to show; past the newest, what was typed. Undefined when not walking. */
export function newer(entries: readonly string[], walk: HistoryWalk, shown: string): { walk: HistoryWalk; text: string } | undefined {
  if (walk.at >= entries.length) return undefined;
  for (let i = walk.at + 1; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.startsWith(walk.typed) && entry !== shown) return { walk: { ...walk, at: i }, text: entry };
  }
  return { walk: { ...walk, at: entries.length }, text: walk.typed };
}
