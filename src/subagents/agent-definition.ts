import { parseFrontmatter } from "../registry/frontmatter.ts";

/** Where an agent comes from: shiro's own, the person's files, a project's (approved before use), or `--agents` for this run. */
export type AgentSource = "built-in" | "user" | "project" | "run";

/** A kind of child agent the `task` tool can start. */
export type AgentDefinition = {
  name: string;
  /** When to use it, as the `task` tool lists it for the model. */
  description: string;
  /** Its instructions, in place of shiro's base prompt (AGENTS.md, skills and notes still follow). Undefined: shiro's. */
  instructions?: string;
  /** Tool names or patterns it may use (Claude Code's names too: `Read`, `Grep`); undefined: all its parent has. */
  tools?: readonly string[];
  /** The model its calls go to; undefined: the parent's. */
  model?: string;
  source: AgentSource;
  /** A file's: where it is, its exact text (what a person approves) and that text's hash. */
  file?: { path: string; text: string; hash: string };
};

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * An agent's Markdown file as Claude Code writes one: frontmatter `name`, `description`, `tools`
 * (comma-separated or a YAML list), `model`, and the body as its instructions. `name` defaults to the
 * file's name; a description and a body are required.
 */
export function parseAgentFile(text: string, fileName: string): Omit<AgentDefinition, "source" | "file"> | string {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed.problem;
  const name = (parsed.fields.get("name") ?? fileName.replace(/\.md$/, "").split(/[\\/]/).at(-1)!).toLowerCase();
  if (!NAME.test(name)) return `"${name}" is not an agent name (letters, digits, "_" and "-")`;
  const description = parsed.fields.get("description");
  if (!description) return "its frontmatter has no description (the model chooses an agent by it)";
  if (!parsed.body) return "its body (the agent's instructions) is empty";
  const tools = toolList(parsed.fields.get("tools"));
  const model = parsed.fields.get("model");
  return { name, description, instructions: parsed.body, ...(tools ? { tools } : {}), ...(model && model !== "inherit" ? { model } : {}) };
}

/** `Read, Grep, Glob`, `[read_file, grep]` or YAML items (joined by the frontmatter reader); undefined when none are named. */
export function toolList(text: string | undefined): string[] | undefined {
  const names = (text ?? "")
    .trim()
    .replace(/^\[([\s\S]*)\]$/, "$1")
    .split(",")
    .map((name) => name.trim().replace(/^["']|["']$/g, ""))
    .filter((name) => name !== "");
  return names.length ? names : undefined;
}
