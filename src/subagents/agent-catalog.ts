import { relative } from "node:path";
import { folderSignature } from "../registry/folder-signature.ts";
import type { Approvals } from "../store/approvals.ts";
import { shownAsIs } from "../text/terminal-text.ts";
import type { AgentDefinition } from "./agent-definition.ts";
import { agentFolders, loadAgents } from "./load-agents.ts";

/** The agent a `task` call names when it names none: shiro's own prompt and every tool its parent has. */
export const GENERAL: AgentDefinition = {
  name: "general",
  description: "any job",
  source: "built-in",
};

/** The agents a `task` call may start. */
export type AgentCatalog = {
  /** Every agent now: the built-in one, the person's, the project's and `--agents`' (which win a name, in that order). */
  list(): Promise<AgentDefinition[]>;
  /** The agent `name` names, cleared for use — a project's only once the person approved its exact text — or why it cannot start. */
  take(name: string): Promise<AgentDefinition | { refused: string }>;
};

export type CatalogOptions = {
  home: string;
  root: string;
  userHome: string;
  /** `--agents`' definitions for this run. */
  runAgents: readonly AgentDefinition[];
  approvals: () => Promise<Approvals>;
  /** Shows lines and asks yes or no (the REPL); without it a project's agent not approved yet is refused, saying how to approve it. */
  confirm?: (lines: readonly string[], question: string) => Promise<boolean>;
  warn: (line: string) => void;
};

export function createAgentCatalog(o: CatalogOptions): AgentCatalog {
  const folders = Object.values(agentFolders(o.home, o.root, o.userHome)).flat();
  let loaded: { signature: string; agents: Promise<AgentDefinition[]> } | undefined;
  const files = async () => {
    const signature = (await Promise.all(folders.map((folder) => folderSignature(folder, true)))).join("\n\n");
    if (loaded?.signature !== signature) loaded = { signature, agents: loadAgents(o) };
    return loaded.agents;
  };
  const list = async () => {
    const byName = new Map([GENERAL, ...(await files()), ...o.runAgents].map((agent) => [agent.name, agent]));
    return [...byName.values()].sort((a, b) => (a === GENERAL ? -1 : b === GENERAL ? 1 : a.name.localeCompare(b.name)));
  };

  async function approved(agent: AgentDefinition): Promise<string | undefined> {
    if (agent.source !== "project" || !agent.file) return undefined;
    const store = await o.approvals();
    if (store.has("agent", o.root, agent.name, agent.file.hash)) return undefined;
    const where = relative(o.root, agent.file.path);
    if (!o.confirm) return `the agent "${agent.name}" is the project's (${where}) and not approved yet: approve it in an interactive shiro here (asked the first time it is started), or give it with --agents`;
    const rule = "─".repeat(40);
    const yes = await o.confirm([`project agent "${agent.name}" (${where}), not used here before or changed since:`, rule, shownAsIs(agent.file.text.trimEnd()), rule], `Let the model start "${agent.name}" as written?`);
    if (!yes) return `the person did not approve the project's agent "${agent.name}"`;
    await store.add("agent", o.root, agent.name, agent.file.hash);
    return undefined;
  }

  return {
    list,
    async take(name) {
      const agents = await list();
      const agent = agents.find((a) => a.name === name.toLowerCase());
      if (!agent) return { refused: `unknown agent "${name}"; the agents here: ${agents.map((a) => a.name).join(", ")}` };
      const refused = await approved(agent);
      return refused === undefined ? agent : { refused };
    },
  };
}
