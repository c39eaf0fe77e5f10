import pc from "picocolors";
import { rankEntries, type MemoryEntry } from "../store/memory-entries.ts";
import { alignColumns } from "../text/align-columns.ts";

/** `/notes`: every note with its hit count, most used first, columns aligned. */
export function renderNotesTable(entries: readonly MemoryEntry[], opts: { color?: boolean; width?: number } = {}): string {
  if (entries.length === 0) return "No notes for this project yet (the agent records them with remember).";
  const c = pc.createColors(opts.color ?? false);
  const rows = rankEntries(entries);
  const [header, ...lines] = alignColumns([["hits", "kind", "note"], ...rows.map((e) => [String(e.hits), e.kind, e.text])], { right: [0], ...(opts.width === undefined ? {} : { width: opts.width }) });
  return [c.dim(header!), ...lines].join("\n");
}
