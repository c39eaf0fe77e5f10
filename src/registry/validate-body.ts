import { decodeUtf8 } from "./bounded-fetch.ts";
import type { RegistryEntry } from "./index-schema.ts";
import { parsePluginManifest, type PluginManifest } from "./plugin-manifest.ts";
import { RegistryRefusal, entryLabel, type RegistryKind } from "./refusal.ts";
import { sha256Hex } from "./sha256.ts";
import { parseSkillFile, type SkillFile } from "./skill-file.ts";

export type ValidBody =
  | { kind: "skill"; text: string; sha256: string; skill: SkillFile }
  | { kind: "plugin"; text: string; sha256: string; manifest: PluginManifest };

/** Checks fetched bytes against their index entry: pinned hash, well-formed body, and the same name. */
export function validateBody(kind: RegistryKind, entry: RegistryEntry, bytes: Uint8Array): ValidBody {
  const label = entryLabel(kind, entry.name);
  const sha256 = sha256Hex(bytes);
  if (entry.sha256 && entry.sha256 !== sha256) {
    throw new RegistryRefusal(label, `the body's sha256 is ${sha256}, not the ${entry.sha256} the index pins`);
  }
  const text = decodeUtf8(bytes, label);
  if (kind === "skill") {
    const parsed = parseSkillFile(text);
    if (!parsed.ok) throw new RegistryRefusal(label, parsed.problem);
    checkSameName(label, entry.name, parsed.skill.name);
    return { kind, text, sha256, skill: parsed.skill };
  }
  const parsed = parsePluginManifest(text);
  if (!parsed.ok) throw new RegistryRefusal(label, parsed.problem);
  checkSameName(label, entry.name, parsed.manifest.name);
  return { kind, text, sha256, manifest: parsed.manifest };
}

function checkSameName(label: string, indexName: string, bodyName: string): void {
  if (bodyName !== indexName) {
    throw new RegistryRefusal(label, `the body calls itself ${JSON.stringify(bodyName)}, not the index's ${JSON.stringify(indexName)}`);
  }
}
