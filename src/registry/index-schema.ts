import { z } from "zod";
import { nameProblem } from "./check-name.ts";
import { urlProblem } from "./check-url.ts";
import { hiddenCharProblem, plainTextSchema, showHidden } from "../text/hidden-chars.ts";
import { LIMITS } from "./limits.ts";
import { RegistryRefusal, type RegistryKind } from "./refusal.ts";

export const registryEntrySchema = z.object({
  name: z.string(),
  description: plainTextSchema(LIMITS.descriptionLength),
  url: z.string(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits")
    .optional(),
  author: plainTextSchema(100).optional(),
});
export type RegistryEntry = z.infer<typeof registryEntrySchema>;

/**
 * One entry as the index lists it: usable, or refused with the reason. `name` is the entry's own name when
 * it is a valid one (so `add` can say why that entry is refused), else a quoted, escaped form or `#position`.
 */
export type IndexItem = { ok: true; entry: RegistryEntry } | { ok: false; name: string; reason: string };

export type RegistryIndex = { skills: IndexItem[]; plugins: IndexItem[] };

const indexShapeSchema = z.object({
  skills: z.array(z.unknown()).max(LIMITS.entriesPerKind, `at most ${LIMITS.entriesPerKind} entries per kind`),
  plugins: z.array(z.unknown()).max(LIMITS.entriesPerKind, `at most ${LIMITS.entriesPerKind} entries per kind`),
});

// A plugin is data only; a URL naming a script means someone expects it to run.
const CODE_EXTENSION = /\.(?:ts|js|mjs|cjs|tsx|jsx)$/i;

/**
 * Validates an index: its shape as a whole (not JSON, not two lists, too many entries: all refused), then
 * each entry on its own, so one hostile entry in a shared index cannot keep the others from being used.
 */
export function parseIndex(text: string, indexUrl: string): RegistryIndex {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new RegistryRefusal(`index ${indexUrl}`, "it is not valid JSON");
  }
  const shape = indexShapeSchema.safeParse(raw);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    throw new RegistryRefusal(`index ${indexUrl}`, `${issue.path.join(".") || "top level"}: ${issue.message}`);
  }
  return { skills: parseEntries(shape.data.skills, "skill"), plugins: parseEntries(shape.data.plugins, "plugin") };
}

function parseEntries(raws: unknown[], kind: RegistryKind): IndexItem[] {
  const items = raws.map((raw, position) => parseEntry(raw, kind, position));
  const nameOf = (item: IndexItem) => (item.ok ? item.entry.name : item.name);
  const count = new Map<string, number>();
  for (const item of items) count.set(nameOf(item), (count.get(nameOf(item)) ?? 0) + 1);
  // Which of two same-named entries is the real one cannot be known, so neither is installed.
  return items.map((item) => (item.ok && count.get(item.entry.name)! > 1 ? { ok: false, name: item.entry.name, reason: "the name is listed twice" } : item));
}

/** One entry, checked on its own: a refusal is a result, not an exception. */
export function parseEntry(raw: unknown, kind: RegistryKind, position = 0): IndexItem {
  const rawName = (raw as { name?: unknown } | null)?.name;
  const name = typeof rawName !== "string" ? `#${position + 1}` : nameProblem(rawName) ? showHidden(JSON.stringify(rawName.slice(0, LIMITS.nameLength + 1))) : rawName;
  const refused = (reason: string): IndexItem => ({ ok: false, name, reason });
  const parsed = registryEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return refused(`${issue.path.join(".") || `${kind} entry`}: ${issue.message}`);
  }
  const entry = parsed.data;
  const problem = nameProblem(entry.name) ?? urlCheck(entry.url);
  if (problem) return refused(problem);
  if (kind === "plugin" && CODE_EXTENSION.test(new URL(entry.url).pathname)) {
    return refused("its URL names a script; a plugin is a JSON manifest of deny rules and carries no code");
  }
  return { ok: true, entry };
}

// The URL is shown in the question before an install, so it must read as what it is.
const urlCheck = (url: string): string | undefined => {
  const hidden = hiddenCharProblem(url);
  return hidden ? `url ${hidden}` : urlProblem(url);
};
