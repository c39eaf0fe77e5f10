import type { RegistryKind } from "./refusal.ts";

export type EntrySpec = { kind?: RegistryKind; name: string };

/** `name`, `skill:name` or `plugin:name`; undefined for any other prefix. */
export function parseEntrySpec(spec: string): EntrySpec | undefined {
  const colon = spec.indexOf(":");
  if (colon < 0) return { name: spec };
  const kind = spec.slice(0, colon);
  if (kind !== "skill" && kind !== "plugin") return undefined;
  return { kind, name: spec.slice(colon + 1) };
}

/** Picks the one kind a spec means among those where the name exists; a name used by both needs a prefix. */
export function pickKind(spec: EntrySpec, kindsWithName: RegistryKind[]): RegistryKind | "none" | "ambiguous" {
  const candidates = spec.kind ? kindsWithName.filter((kind) => kind === spec.kind) : kindsWithName;
  if (candidates.length === 0) return "none";
  if (candidates.length > 1) return "ambiguous";
  return candidates[0]!;
}
