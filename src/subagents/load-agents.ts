import { join } from "node:path";
import { readDefinitions, type DefinitionFile, type DefinitionScope } from "../registry/definition-files.ts";
import { parseAgentFile, type AgentDefinition } from "./agent-definition.ts";

/** Where each scope's agents are: shiro's folder, then Claude Code's (`.claude/agents/` is the project's, asked about as `.shiro/agents/` is). */
export const agentFolders = (home: string, root: string, userHome: string): Record<DefinitionScope, string[]> => ({
  user: [join(home, "agents"), join(userHome, ".claude", "agents")],
  project: [join(root, ".shiro", "agents"), join(root, ".claude", "agents")],
});

export type LoadAgentsOptions = { home: string; root: string; userHome: string; warn: (line: string) => void };

/** Every custom agent of the folders, one per name (registry/definition-files.ts); a file that is not one is skipped with one warning. */
export function loadAgents(opts: LoadAgentsOptions): Promise<AgentDefinition[]> {
  return readDefinitions({ folders: agentFolders(opts.home, opts.root, opts.userHome), root: opts.root, kind: "agent", parse: agentOf, warn: opts.warn });
}

function agentOf(file: DefinitionFile): AgentDefinition | string {
  const parsed = parseAgentFile(file.text, file.relative);
  if (typeof parsed === "string") return parsed;
  return { ...parsed, source: file.scope, file: { path: file.path, text: file.text, hash: file.hash } };
}
