import type { Skill } from "./load-skills.ts";
import { SKILLS_PREAMBLE, skillLine } from "./skills-instructions.ts";

/**
 * What changed in the skills since the instructions listed them, as a note for the end of the request;
 * undefined when nothing did. The instructions themselves stay byte for byte what they were, so the cached
 * prefix of every request survives an install, and the model still hears of it at its next call.
 */
export function skillsUpdate(listed: readonly Skill[], current: readonly Skill[]): string | undefined {
  const before = new Map(listed.map((skill) => [skill.name, skill.description]));
  const now = new Set(current.map((skill) => skill.name));
  const changed = current.filter((skill) => before.get(skill.name) !== skill.description);
  const gone = listed.filter((skill) => !now.has(skill.name)).map((skill) => skill.name);
  if (changed.length === 0 && gone.length === 0) return undefined;
  return [
    "Skills changed during this session (this note replaces what your instructions say about them).",
    ...(changed.length ? [SKILLS_PREAMBLE, ...changed.map(skillLine)] : []),
    ...(gone.length ? [`No longer available: ${gone.join(", ")}.`] : []),
  ].join("\n");
}
