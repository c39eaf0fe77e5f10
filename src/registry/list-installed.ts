import { readdir } from "node:fs/promises";
import { nameProblem } from "./check-name.ts";
import { installedBodyPath, installedDir, originPath } from "./installed-paths.ts";
import { originSchema, type Origin } from "./origin.ts";
import { parsePluginManifest, type PluginManifest } from "./plugin-manifest.ts";
import { readJson } from "../store/read-json.ts";
import type { RegistryKind } from "./refusal.ts";
import { sha256Hex } from "./sha256.ts";
import { parseSkillFile, type SkillFile } from "./skill-file.ts";

/** `description` and `sha256` are the installed file's own, whatever the index says now. */
export type Installed = { name: string; path: string; description: string; sha256: string; origin?: Origin } & (
  | { kind: "skill"; skill: SkillFile }
  | { kind: "plugin"; manifest: PluginManifest }
);

const BODY_FILE = { skill: /^(.+)\.md$/, plugin: /^(.+)\.json$/ } as const;

/**
 * Reads what is installed of one kind, re-validating every body as if it had just been fetched (the files
 * are in the person's home and could have been edited). Bad files are skipped with a warning.
 */
export async function listInstalled(home: string, kind: RegistryKind, warn: (line: string) => void = () => {}): Promise<Installed[]> {
  let files: string[];
  try {
    files = (await readdir(installedDir(home, kind))).sort();
  } catch {
    return [];
  }
  const found: Installed[] = [];
  for (const file of files) {
    const name = BODY_FILE[kind].exec(file)?.[1];
    if (!name || name.endsWith(".origin") || file.endsWith(".tmp")) continue;
    const path = installedBodyPath(home, kind, name);
    const item = await readInstalled(home, kind, name, path);
    if (typeof item === "string") warn(`skipping installed ${kind} ${path}: ${item}`);
    else found.push(item);
  }
  return found;
}

async function readInstalled(home: string, kind: RegistryKind, name: string, path: string): Promise<Installed | string> {
  const badName = nameProblem(name);
  if (badName) return badName;
  let bytes: Uint8Array;
  try {
    bytes = await Bun.file(path).bytes();
  } catch (err) {
    return `cannot read it (${(err as Error).message})`;
  }
  const text = new TextDecoder().decode(bytes);
  const origin = await readJson(originPath(home, kind, name), originSchema);
  const common = { name, path, sha256: sha256Hex(bytes), origin: origin.ok ? origin.value : undefined };
  if (kind === "skill") {
    const parsed = parseSkillFile(text);
    if (!parsed.ok) return parsed.problem;
    if (parsed.skill.name !== name) return `it calls itself ${JSON.stringify(parsed.skill.name)}`;
    return { ...common, kind, description: parsed.skill.description, skill: parsed.skill };
  }
  const parsed = parsePluginManifest(text);
  if (!parsed.ok) return parsed.problem;
  if (parsed.manifest.name !== name) return `it calls itself ${JSON.stringify(parsed.manifest.name)}`;
  return { ...common, kind, description: parsed.manifest.description, manifest: parsed.manifest };
}
