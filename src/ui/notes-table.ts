import pc from "picocolors";
import { rankEntries, type MemoryEntry } from "../store/memory-entries.ts";

/** `/notes`: every note with its hit count, most used first, columns aligned. */
export function renderNotesTable(entries: readonly MemoryEntry[], opts: { color?: boolean } = {}): string {
  if (entries.length === 0) return "No notes for this project yet (the agent records them with remember).";
  const c = pc.createColors(opts.color ?? false);
  const rows = rankEntries(entries);
  const hitsWidth = Math.max("hits".length, ...rows.map((e) => String(e.hits).length));
  const kindWidth = Math.max("kind".length, ...rows.map((e) => e.kind.length));
  const line = (hits: string, kind: string, text: string) => `${hits.padStart(hitsWidth)}  ${kind.padEnd(kindWidth)}  ${text}`;
  return [c.dim(line("hits", "kind", "note")), ...rows.map((e) => line(String(e.hits), e.kind, e.text))].join("\n");
}
