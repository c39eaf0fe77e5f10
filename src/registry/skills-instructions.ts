import type { Skill } from "./load-skills.ts";

/** The instructions section naming each skill (name and description only; bodies load via the `skill` tool). */
export function skillsInstructions(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  return [
    "# Skills",
    "Each skill below is a set of instructions you can load with the `skill` tool when a task matches its description.",
    ...skills.map((skill) => `- ${skill.name}: ${skill.description}`),
  ].join("\n");
}
