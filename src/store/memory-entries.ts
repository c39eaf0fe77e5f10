import { z } from "zod";

export const memoryKinds = ["fact", "decision", "gotcha", "command"] as const;
export type MemoryKind = (typeof memoryKinds)[number];

export const MAX_ENTRY_CHARS = 400;
export const MAX_ENTRIES = 300;

export const memoryEntrySchema = z.object({
  id: z.string().min(1),
  kind: z.enum(memoryKinds),
  text: z.string().min(1),
  createdAt: z.string(),
  hits: z.number().int().nonnegative(),
  lastHitAt: z.string().optional(),
});
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

export const memoryFileSchema = z.object({
  version: z.literal(1),
  project: z.string(),
  entries: z.array(memoryEntrySchema),
});

/** A note as the model reads it, in its instructions and in tool results: `- (gotcha) text`. */
export const noteLine = (e: Pick<MemoryEntry, "kind" | "text">): string => `- (${e.kind}) ${e.text}`;

/** Two texts that differ only in case or spacing are the same note. */
export const normaliseText = (text: string): string => text.toLowerCase().replace(/\s+/g, " ").trim();

/** Why a text cannot be stored as one entry, or undefined when it can. */
export function checkEntryText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return "text is empty; write one self-contained line.";
  if (/[\r\n]/.test(trimmed)) return "text must be one line; write one self-contained line per entry.";
  if (trimmed.length > MAX_ENTRY_CHARS) {
    return `text is ${trimmed.length} characters; the limit is ${MAX_ENTRY_CHARS}. Shorten it to one self-contained line.`;
  }
  return undefined;
}

export type AddOutcome = { ok: true; entries: MemoryEntry[]; entry: MemoryEntry } | { ok: false; message: string };

export function addEntry(entries: readonly MemoryEntry[], kind: MemoryKind, text: string, now: Date): AddOutcome {
  const problem = checkEntryText(text);
  if (problem) return { ok: false, message: problem };
  const key = normaliseText(text);
  const existing = entries.find((e) => normaliseText(e.text) === key);
  if (existing) return { ok: false, message: `Already recorded: ${existing.text}` };
  if (entries.length >= MAX_ENTRIES) {
    return {
      ok: false,
      message: `Memory is full (${MAX_ENTRIES} entries). Remove stale entries with forget, or ask the person to run /memory to merge them.`,
    };
  }
  const entry: MemoryEntry = { id: newEntryId(entries), kind, text: text.trim(), createdAt: now.toISOString(), hits: 0 };
  return { ok: true, entries: [...entries, entry], entry };
}

const queryTerms = (query: string): string[] => normaliseText(query).split(" ").filter(Boolean);

/** Entries whose text contains every term (case-insensitive), best first. */
export function matchEntries(entries: readonly MemoryEntry[], query: string): MemoryEntry[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  return rankEntries(entries.filter((e) => terms.every((t) => normaliseText(e.text).includes(t))));
}

/** Counts a use of each entry in `ids` (they are worth keeping verbatim). */
export function countHits(entries: readonly MemoryEntry[], ids: ReadonlySet<string>, now: Date): MemoryEntry[] {
  return entries.map((e) => (ids.has(e.id) ? { ...e, hits: e.hits + 1, lastHitAt: now.toISOString() } : e));
}

/** Splits entries into those containing `text` (case- and space-insensitive) and the rest. */
export function partitionForget(entries: readonly MemoryEntry[], text: string): { removed: MemoryEntry[]; kept: MemoryEntry[] } {
  const needle = normaliseText(text);
  const removed = needle === "" ? [] : entries.filter((e) => normaliseText(e.text).includes(needle));
  return { removed, kept: entries.filter((e) => !removed.includes(e)) };
}

const lastSeen = (e: MemoryEntry): string => e.lastHitAt ?? e.createdAt;

/** Most recalled first, then most recently used or written. */
export function rankEntries(entries: readonly MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => b.hits - a.hits || lastSeen(b).localeCompare(lastSeen(a)) || b.id.localeCompare(a.id));
}

export function newEntryId(taken: readonly MemoryEntry[]): string {
  while (true) {
    const id = Bun.randomUUIDv7().replace(/-/g, "").slice(-10);
    if (!taken.some((e) => e.id === id)) return id;
  }
}
