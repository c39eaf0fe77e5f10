import type { Skill } from "./load-skills.ts";

export const SKILLS_PREAMBLE = "Each skill below is a set of instructions you can load with the `skill` tool when a task matches its description.";

/** How the model reads of one skill: its name and description (the body loads via the `skill` tool). */
export const skillLine = (skill: Skill): string => `- ${skill.name}: ${skill.description}`;

/** The instructions section naming each skill. */
export function skillsInstructions(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  return ["# Skills", SKILLS_PREAMBLE, ...skills.map(skillLine)].join("\n");
}
