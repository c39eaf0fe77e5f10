import { describeHidden, findHidden } from "./hidden-chars.ts";
import { LIMITS } from "./limits.ts";

export type SkillFile = { name: string; description: string; body: string };

export type SkillParse = { ok: true; skill: SkillFile } | { ok: false; problem: string };

/**
 * Reads a skill: `---` frontmatter with `name:` and `description:` lines (other keys are ignored), then the
 * Markdown body the model loads on demand. Values may be wrapped in single or double quotes.
 */
export function parseSkillFile(text: string): SkillParse {
  // A leading byte-order mark is how some editors save UTF-8; anywhere else U+FEFF is hidden text.
  const unmarked = text.replace(/^\uFEFF/, "");
  const hidden = findHidden(unmarked);
  if (hidden) {
    const line = unmarked.slice(0, hidden.index).split("\n").length;
    return { ok: false, problem: `it contains ${describeHidden(hidden)} on line ${line}` };
  }
  const lines = unmarked.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { ok: false, problem: "it does not start with a --- frontmatter line" };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  if (end < 0) return { ok: false, problem: "its frontmatter has no closing --- line" };
  const fields = new Map<string, string>();
  for (const line of lines.slice(1, end)) {
    const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (match) fields.set(match[1]!, unquote(match[2]!.trim()));
  }
  const name = fields.get("name");
  const description = fields.get("description");
  if (!name) return { ok: false, problem: "its frontmatter has no name" };
  if (!description) return { ok: false, problem: "its frontmatter has no description" };
  if (description.length > LIMITS.descriptionLength) {
    return { ok: false, problem: `its description is over ${LIMITS.descriptionLength} characters` };
  }
  const body = lines.slice(end + 1).join("\n").trim();
  if (!body) return { ok: false, problem: "its body is empty" };
  return { ok: true, skill: { name, description, body } };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value;
}
