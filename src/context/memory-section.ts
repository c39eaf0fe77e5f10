import { noteLine, rankEntries, type MemoryEntry } from "../store/memory-entries.ts";

export const MEMORY_SECTION_HEADER =
  "What you learned about this project in earlier sessions. Trust it, but verify anything that contradicts what you can see in the code now:";

export const MEMORY_SECTION_SIZE = 20;

/**
 * The instructions section built once at session start: the 20 most recalled notes, then the most
 * recent. Empty when there are none. Build it once per session so the instructions stay byte-identical.
 */
export function memorySection(entries: readonly MemoryEntry[]): string {
  const top = rankEntries(entries).slice(0, MEMORY_SECTION_SIZE);
  if (top.length === 0) return "";
  return [MEMORY_SECTION_HEADER, ...top.map(noteLine)].join("\n");
}
