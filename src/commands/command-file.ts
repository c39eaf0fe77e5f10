import { parseFrontmatter } from "../registry/frontmatter.ts";

/**
 * What a saved command's Markdown file says: the prompt and, in its frontmatter (Claude Code's keys),
 * a description, the words it takes (`argument-hint`, shown in the `/` menu), the model of its turn
 * and the tools that turn offers (`allowed-tools`, read by allowed-tools.ts).
 */
export type CommandFile = { description: string; argumentHint?: string; model?: string; allowedTools?: string; body: string };

export type CommandParse = { ok: true; command: CommandFile } | { ok: false; problem: string };

/** The frontmatter is optional (a file may be only its prompt); a body is not. */
export function parseCommandFile(text: string): CommandParse {
  const parsed = parseFrontmatter(text, true);
  if (!parsed.ok) return parsed;
  if (!parsed.body) return { ok: false, problem: "its body (the prompt) is empty" };
  const optional = (key: string, as: keyof CommandFile) => {
    const value = parsed.fields.get(key);
    return value ? { [as]: value } : {};
  };
  return {
    ok: true,
    command: { description: parsed.fields.get("description") ?? "", ...optional("argument-hint", "argumentHint"), ...optional("model", "model"), ...optional("allowed-tools", "allowedTools"), body: parsed.body },
  };
}

const SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;

/**
 * The command a file under a commands folder names: `review.md` → `review`, `git/commit.md` →
 * `git:commit` (a subfolder is a group). Lower case, as the REPL reads `/Review` as `/review`.
 */
export function commandName(relativePath: string): { ok: true; name: string } | { ok: false; problem: string } {
  const segments = relativePath.replace(/\.md$/, "").toLowerCase().split(/[\\/]/);
  const bad = segments.find((s) => !SEGMENT.test(s));
  if (bad !== undefined) return { ok: false, problem: `"${bad}" is not a command name (letters, digits, ".", "_" and "-", starting with a letter or digit)` };
  return { ok: true, name: segments.join(":") };
}
