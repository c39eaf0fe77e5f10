import { matchesTool } from "../hooks/match-tool.ts";

/**
 * Which of its parent's tools a child may use: those its definition names (shiro's names, Claude
 * Code's — `Read`, `Edit`, `Bash` — or `*` patterns, matched as a hook's matcher is), never one the
 * parent lacks. The `task` tool only while the tree may grow deeper.
 */
export function childTools(parentTools: readonly string[], named: readonly string[] | undefined, mayDelegate: boolean): Set<string> {
  return new Set(parentTools.filter((tool) => (tool === "task" ? mayDelegate && allows(named, tool) : allows(named, tool))));
}

const allows = (named: readonly string[] | undefined, tool: string) => named === undefined || named.some((name) => matchesTool(name, tool));
