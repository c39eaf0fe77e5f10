import { z } from "zod";
import {
  checkEntryText,
  MAX_ENTRY_CHARS,
  memoryKinds,
  newEntryId,
  noteLine,
  normaliseText,
  type MemoryEntry,
} from "../store/memory-entries.ts";
import type { MemoryStore } from "../store/memory-store.ts";

/** One model call: the prompt in, the answer text out, or null when the call failed. */
export type AskModel = (prompt: string) => Promise<string | null>;

export type MergeOutcome =
  | { status: "merged"; before: number; after: number }
  | { status: "unchanged"; message: string };

const answerSchema = z.object({
  notes: z.array(z.object({ kind: z.enum(memoryKinds), text: z.string(), from: z.array(z.string()).min(1) })),
});

/** Entries the agent recalled at least once are kept verbatim: they proved useful as written. */
const isPinned = (e: MemoryEntry): boolean => e.hits >= 1;

export function buildMergePrompt(entries: readonly MemoryEntry[]): string {
  const pinned = entries.filter(isPinned);
  const mergeable = entries.filter((e) => !isPinned(e));
  return [
    "You are tidying the notes a coding agent keeps about one software project.",
    "Merge notes that say the same thing or belong together, cut words that add nothing, and keep every distinct piece of information. Invent nothing.",
    "",
    "Rules:",
    `- Each output note is one self-contained line of at most ${MAX_ENTRY_CHARS} characters; kind is one of ${memoryKinds.join(", ")}.`,
    '- Every id under "Notes to merge" must appear in the "from" list of exactly one output note. A note you keep unchanged lists only its own id.',
    "- Do not repeat the notes under \"Kept as they are\".",
    "- Answer with JSON only, no prose, in exactly this shape:",
    '{"notes":[{"kind":"fact","text":"one line","from":["id1","id2"]}]}',
    "",
    "Kept as they are (context only):",
    ...(pinned.length ? pinned.map(noteLine) : ["(none)"]),
    "",
    "Notes to merge:",
    ...mergeable.map((e) => JSON.stringify({ id: e.id, kind: e.kind, text: e.text })),
  ].join("\n");
}

/**
 * Applies the model's answer to `entries`. Returns the new entry list, or null when the answer does
 * not parse or breaks a rule (an id lost or used twice, a recalled entry touched, a bad line).
 */
export function applyMergeAnswer(entries: readonly MemoryEntry[], answer: string, now: Date): MemoryEntry[] | null {
  const parsed = answerSchema.safeParse(parseLoose(answer));
  if (!parsed.success) return null;
  const pinned = entries.filter(isPinned);
  const mergeable = new Map(entries.filter((e) => !isPinned(e)).map((e) => [e.id, e]));

  const used = new Set<string>();
  const seenTexts = new Set(pinned.map((e) => normaliseText(e.text)));
  const merged: MemoryEntry[] = [];
  for (const note of parsed.data.notes) {
    const text = note.text.trim();
    if (checkEntryText(text) || seenTexts.has(normaliseText(text))) return null;
    seenTexts.add(normaliseText(text));
    const sources: MemoryEntry[] = [];
    for (const id of note.from) {
      const source = mergeable.get(id);
      if (!source || used.has(id)) return null;
      used.add(id);
      sources.push(source);
    }
    const only = sources.length === 1 ? sources[0] : undefined;
    if (only && only.text === text && only.kind === note.kind) {
      merged.push(only);
      continue;
    }
    const createdAt = sources.map((s) => s.createdAt).sort().at(-1) ?? now.toISOString();
    merged.push({ id: newEntryId([...entries, ...merged]), kind: note.kind, text, createdAt, hits: 0 });
  }
  if (used.size !== mergeable.size) return null;
  return [...pinned, ...merged];
}

/** The answer as JSON, tolerating one surrounding ```json fence; undefined when it is not JSON. */
function parseLoose(answer: string): unknown {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(answer.trim());
  try {
    return JSON.parse(fenced?.[1] ?? answer);
  } catch {
    return undefined;
  }
}

/** `/memory`: asks the model to merge the notes and writes the result only if it is valid. */
export async function mergeMemory(store: MemoryStore, ask: AskModel, now = new Date()): Promise<MergeOutcome> {
  const snapshot = await store.read();
  if (snapshot.warning) return { status: "unchanged", message: snapshot.warning };
  const mergeable = snapshot.entries.filter((e) => !isPinned(e)).length;
  if (mergeable < 2) return { status: "unchanged", message: "Nothing to merge: fewer than two notes have never been recalled." };

  const answer = await ask(buildMergePrompt(snapshot.entries));
  if (answer === null) return { status: "unchanged", message: "The model gave no answer; memory was left as it was." };
  const next = applyMergeAnswer(snapshot.entries, answer, now);
  if (!next) return { status: "unchanged", message: "The model's answer was not valid merge JSON; memory was left as it was." };
  const kept = new Set(snapshot.entries);
  if (next.length === snapshot.entries.length && next.every((e) => kept.has(e))) {
    return { status: "unchanged", message: "The model found nothing to merge." };
  }
  await store.replaceAll(next, snapshot.entries);
  return { status: "merged", before: snapshot.entries.length, after: next.length };
}
