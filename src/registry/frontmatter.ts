import { describeHidden, findHidden } from "../text/hidden-chars.ts";

/** A Markdown file's `---` frontmatter fields (`key: value` lines) and the body after it. */
export type Frontmatter = { fields: Map<string, string>; body: string; hasFrontmatter: boolean };

export type FrontmatterParse = ({ ok: true } & Frontmatter) | { ok: false; problem: string };

/**
 * Reads `---` frontmatter (`key: value` lines and a key's `- item` list; other lines are ignored;
 * values may be wrapped in single or double quotes) and the trimmed body. Text hidden from a reader
 * (zero-width, bidi controls) is refused: what a person approves must be what the model reads.
 * `optional`: a file without a leading `---` is all body.
 */
export function parseFrontmatter(text: string, optional = false): FrontmatterParse {
  // A leading byte-order mark is how some editors save UTF-8; anywhere else U+FEFF is hidden text.
  const unmarked = text.replace(/^\uFEFF/, "");
  const hidden = findHidden(unmarked);
  if (hidden) {
    const line = unmarked.slice(0, hidden.index).split("\n").length;
    return { ok: false, problem: `it contains ${describeHidden(hidden)} on line ${line}` };
  }
  const lines = unmarked.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") {
    if (optional) return { ok: true, fields: new Map(), body: unmarked.trim(), hasFrontmatter: false };
    return { ok: false, problem: "it does not start with a --- frontmatter line" };
  }
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  if (end < 0) return { ok: false, problem: "its frontmatter has no closing --- line" };
  const fields = new Map<string, string>();
  // A key left empty may be a YAML list (`allowed-tools:` then `  - Read` lines): its items, joined by ", ".
  let list: string | undefined;
  for (const line of lines.slice(1, end)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && list !== undefined) {
      fields.set(list, [fields.get(list), unquote(item[1]!.trim())].filter(Boolean).join(", "));
      continue;
    }
    const match = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (match) fields.set(match[1]!, unquote(match[2]!.trim()));
    list = match && match[2]!.trim() === "" ? match[1] : undefined;
  }
  return { ok: true, fields, body: lines.slice(end + 1).join("\n").trim(), hasFrontmatter: true };
}

function unquote(value: string): string {
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? quoted[2]! : value;
}
