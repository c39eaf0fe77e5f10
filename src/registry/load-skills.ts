import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { nameProblem } from "./check-name.ts";
import { LIMITS } from "./limits.ts";
import { listInstalled } from "./list-installed.ts";
import type { Origin } from "./origin.ts";
import { parseSkillFile, type SkillFile } from "./skill-file.ts";

/** Low to high precedence: a later layer's skill replaces an earlier one of the same name. */
export const SKILL_LAYERS = ["built-in", "installed", "personal", "project"] as const;
export type SkillLayer = (typeof SKILL_LAYERS)[number];

export type Skill = SkillFile & {
  layer: SkillLayer;
  /** The file it was read from; "built-in" for those compiled in. */
  source: string;
  /** Set for installed skills: index, entry URL, sha256, date. */
  origin?: Origin;
  /** Lower layers this one hides, so `/skills` can say so. */
  overrides: SkillLayer[];
};

export type LoadSkillsOptions = {
  home: string;
  root: string;
  builtin?: SkillFile[];
  warn?: (line: string) => void;
};

/**
 * Every available skill, one per name, by precedence built-in → installed → the person's own
 * (`$SHIRO_HOME/skills`) → the project's (`.shiro/skills`). Installed sits below both hand-written
 * layers, so nothing fetched from a registry can ever replace an instruction the person wrote.
 */
export async function loadSkills({ home, root, builtin = [], warn = () => {} }: LoadSkillsOptions): Promise<Skill[]> {
  const installed = (await listInstalled(home, "skill", warn)).flatMap((item) =>
    item.kind === "skill" ? [{ ...item.skill, layer: "installed" as const, source: item.path, origin: item.origin, overrides: [] }] : [],
  );
  const layers: Skill[][] = [
    builtin.map((skill) => ({ ...skill, layer: "built-in", source: "built-in", overrides: [] })),
    installed,
    await readSkillFolder(join(home, "skills"), "personal", warn),
    await readSkillFolder(join(root, ".shiro", "skills"), "project", warn),
  ];
  const byName = new Map<string, Skill>();
  for (const skill of layers.flat()) {
    const lower = byName.get(skill.name);
    byName.set(skill.name, lower ? { ...skill, overrides: [...lower.overrides, lower.layer] } : skill);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function readSkillFolder(dir: string, layer: SkillLayer, warn: (line: string) => void): Promise<Skill[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => file.endsWith(".md")).sort();
  } catch {
    return [];
  }
  const skills: Skill[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const problem = await readSkill(path).then(
      (parsed) => {
        if (!parsed.ok) return parsed.problem;
        const badName = nameProblem(parsed.skill.name);
        if (badName) return badName;
        skills.push({ ...parsed.skill, layer, source: path, overrides: [] });
        return undefined;
      },
      (err: Error) => `cannot read it (${err.message})`,
    );
    if (problem) warn(`skipping skill ${path}: ${problem}`);
  }
  return skills;
}

async function readSkill(path: string) {
  const file = Bun.file(path);
  if (file.size > LIMITS.bodyBytes) return { ok: false as const, problem: `it is over ${LIMITS.bodyBytes / 1024} KiB` };
  return parseSkillFile(await file.text());
}
