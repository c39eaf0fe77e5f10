import { matchesTool } from "../hooks/match-tool.ts";
import type { TurnAllow } from "../tools/authorize-request.ts";

/**
 * What a saved command's `allowed-tools` make of the turn it starts: only the tools it names are
 * offered to the model, and the commands its `Bash(…)` patterns name run without asking.
 */
export type ToolLimit = {
  /** The entries as written (`Bash(git status:*)`, `Read`), to tell the person. */
  entries: readonly string[];
  /** Whether the turn offers this tool (by shiro's name: `bash`, `read_file`, `mcp__github__search`). */
  offers(tool: string): boolean;
  /** The names that stand for tools, as matchers: to find one that names no tool at all. */
  names: readonly string[];
  /** The commands approved for the turn, as an "always" answer approves them: `bash` `git status *`. */
  allows: readonly TurnAllow[];
};

/**
 * Reads `allowed-tools` as Claude Code writes it — `Bash(git add:*), Bash(git status:*), Read, Edit`,
 * a `[…]` list or YAML items (joined by the frontmatter reader) — and as shiro names tools
 * (`bash, read_file`). A name is matched as a hook's matcher is (match-tool.ts: any case, Claude
 * Code's `Read`, `Edit`, `Write`, `LS`, `TodoWrite` standing for the shiro tools doing that work, `*`
 * globs); `mcp__github` (a server alone) is every tool of that server, as in Claude Code.
 *
 * Only a `Bash(…)` pattern approves anything: `Bash(git status:*)` is `git status` and what follows
 * it as words (shiro's `git status *`), `Bash(git status)` that command alone, and a `*` in it any
 * text. A bare name (`Bash`, `Edit`) offers the tool and approves nothing — its calls are asked as
 * ever — and a pattern on another tool (`Read(src/**)`) is read as its name: opening every command or
 * every write is for the person's rules and `--yolo`, not for a file. Undefined when the list is empty.
 */
export function parseAllowedTools(text: string): ToolLimit | undefined {
  const entries = splitEntries(text.trim().replace(/^\[([\s\S]*)\]$/, "$1"));
  if (entries.length === 0) return undefined;
  const names: string[] = [];
  const allows: TurnAllow[] = [];
  for (const entry of entries) {
    const match = /^([^()\s]+)\s*(?:\(([\s\S]*)\))?$/.exec(entry);
    const name = match?.[1] ?? entry;
    names.push(name.startsWith("mcp__") && name.split("__").length === 2 ? `${name}__*` : name);
    const pattern = match?.[2]?.trim();
    if (pattern && matchesTool(name, "bash")) allows.push({ tool: "bash", pattern: commandPattern(pattern) });
  }
  return { entries, names, allows, offers: (tool) => names.some((name) => matchesTool(name, tool)) };
}

/** The names that stand for none of `tools` (Claude Code's `WebFetch`); MCP names are not judged, as their servers may still be starting. */
export const namingNothing = (limit: ToolLimit, tools: readonly string[]): string[] =>
  limit.names.filter((name) => !/^mcp__/i.test(name) && !tools.some((tool) => matchesTool(name, tool)));

/** Claude Code's `git add:*` (that prefix, then any words) as shiro's `git add *`; its `?` and `\` are literal. */
function commandPattern(pattern: string): string {
  const literal = pattern.replace(/[\\?]/g, "\\$&");
  return literal.endsWith(":*") ? `${literal.slice(0, -2).trimEnd()} *` : literal;
}

/** Splits at commas and line ends outside parentheses: `Bash(git log --format=%h,%s:*)` stays one entry. */
function splitEntries(text: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    if ((ch === "," || ch === "\n") && depth === 0) {
      entries.push(current);
      current = "";
    } else current += ch;
  }
  entries.push(current);
  return entries.map((e) => e.trim().replace(/^(["'])(.*)\1$/, "$2")).filter((e) => e !== "");
}
