import { parseFrontmatter } from "./frontmatter.ts";
import { LIMITS } from "./limits.ts";

export type SkillFile = { name: string; description: string; body: string };

export type SkillParse = { ok: true; skill: SkillFile } | { ok: false; problem: string };

/**
 * Reads a skill: `---` frontmatter with `name:` and `description:` lines (other keys are ignored), then the
 * Markdown body the model loads on demand. Values may be wrapped in single or double quotes.
 */
export function parseSkillFile(text: string): SkillParse {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  const name = parsed.fields.get("name");
  const description = parsed.fields.get("description");
  if (!name) return { ok: false, problem: "its frontmatter has no name" };
  if (!description) return { ok: false, problem: "its frontmatter has no description" };
  if (description.length > LIMITS.descriptionLength) {
    return { ok: false, problem: `its description is over ${LIMITS.descriptionLength} characters` };
  }
  if (!parsed.body) return { ok: false, problem: "its body is empty" };
  return { ok: true, skill: { name, description, body: parsed.body } };
}
