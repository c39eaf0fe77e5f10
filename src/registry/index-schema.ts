import { z } from "zod";
import { nameProblem } from "./check-name.ts";
import { urlProblem } from "./check-url.ts";
import { plainTextSchema } from "./control-chars.ts";
import { LIMITS } from "./limits.ts";
import { RegistryRefusal, entryLabel, type RegistryKind } from "./refusal.ts";

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

const indexShapeSchema = z.object({
  skills: z.array(z.unknown()).max(LIMITS.entriesPerKind, `at most ${LIMITS.entriesPerKind} entries per kind`),
  plugins: z.array(z.unknown()).max(LIMITS.entriesPerKind, `at most ${LIMITS.entriesPerKind} entries per kind`),
});

export type RegistryIndex = { skills: RegistryEntry[]; plugins: RegistryEntry[] };

// A plugin is data only; a URL naming a script means someone expects it to run.
const CODE_EXTENSION = /\.(?:ts|js|mjs|cjs|tsx|jsx)$/i;

/** Validates a whole index; the first bad entry refuses all of it, naming that entry and the rule. */
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
  return {
    skills: parseEntries(shape.data.skills, "skill"),
    plugins: parseEntries(shape.data.plugins, "plugin"),
  };
}

function parseEntries(raws: unknown[], kind: RegistryKind): RegistryEntry[] {
  const seen = new Set<string>();
  return raws.map((raw, position) => {
    const entry = parseEntry(raw, kind, position);
    if (seen.has(entry.name)) throw new RegistryRefusal(entryLabel(kind, entry.name), "the name is listed twice");
    seen.add(entry.name);
    return entry;
  });
}

export function parseEntry(raw: unknown, kind: RegistryKind, position = 0): RegistryEntry {
  const rawName = (raw as { name?: unknown } | null)?.name;
  const label = typeof rawName === "string" ? entryLabel(kind, rawName) : `${kind} entry #${position + 1}`;
  const parsed = registryEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RegistryRefusal(label, `${issue.path.join(".")}: ${issue.message}`);
  }
  const entry = parsed.data;
  const badName = nameProblem(entry.name);
  if (badName) throw new RegistryRefusal(label, badName);
  const badUrl = urlProblem(entry.url);
  if (badUrl) throw new RegistryRefusal(label, badUrl);
  if (kind === "plugin" && CODE_EXTENSION.test(new URL(entry.url).pathname)) {
    throw new RegistryRefusal(label, "its URL names a script; a plugin is a JSON manifest of deny rules and carries no code");
  }
  return entry;
}
