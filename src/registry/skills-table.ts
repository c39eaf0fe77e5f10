import type { Skill } from "./load-skills.ts";
import { alignColumns } from "../text/align-columns.ts";

/** The `/skills` listing: each skill, the layer it came from, and where it came from; `width` clips it to a terminal. */
export function renderSkillsTable(skills: readonly Skill[], width?: number): string[] {
  if (skills.length === 0) return ["No skills. Add .md files to .shiro/skills/ or run /registry list."];
  return alignColumns([
    ["NAME", "FROM", "SOURCE", "DESCRIPTION"],
    ...skills.map((skill) => [skill.name, layerText(skill), sourceText(skill), skill.description]),
  ], width === undefined ? {} : { width });
}

function layerText(skill: Skill): string {
  return skill.overrides.length ? `${skill.layer} (over ${skill.overrides.join(", ")})` : skill.layer;
}

function sourceText(skill: Skill): string {
  const origin = skill.origin;
  if (skill.layer !== "installed") return skill.source;
  if (!origin) return `${skill.source} (origin not recorded)`;
  return `${origin.entryUrl} sha256:${origin.sha256.slice(0, 12)} ${origin.installedAt.slice(0, 10)}`;
}
