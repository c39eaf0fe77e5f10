import { join } from "node:path";
import { definitionHash, type Approvals } from "../store/approvals.ts";
import { readJson } from "../store/read-json.ts";
import { mcpFileSchema, serverConfigProblem } from "./mcp-config.ts";
import type { McpServerEntry } from "./server-plan.ts";
import { serverPrefix } from "./tool-names.ts";

export const PROJECT_FILE = ".mcp.json";

/** A server a project's `.mcp.json` defines that the person has not approved as it stands now. */
export type UnapprovedServer = { entry: McpServerEntry; hash: string };

/**
 * The project's own servers: those whose exact definition the person approved in this folder (kept by
 * its hash, so a changed one is asked again), and those still to approve. A name the person's own
 * configuration defines is theirs and the project's is ignored. Problems are warned and skip the server.
 */
// A project's server name is plain — no `__`, no `_` at either end, nothing the API's names would change —
// so its tools' names (`mcp__<server>__<tool>`) can match no rule or name of another server's.
const PLAIN_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

export async function projectServers(opts: { root: string; approvals: () => Promise<Approvals>; own: readonly string[]; warn: (line: string) => void }): Promise<{ approved: McpServerEntry[]; unapproved: UnapprovedServer[] }> {
  const path = join(opts.root, PROJECT_FILE);
  const read = await readJson(path, mcpFileSchema);
  if (!read.ok) {
    if (read.reason === "corrupt") opts.warn(`${read.message}; its MCP servers are skipped`);
    return { approved: [], unapproved: [] };
  }
  const approved: McpServerEntry[] = [];
  const unapproved: UnapprovedServer[] = [];
  const approvals = await opts.approvals();
  const ownPrefixes = opts.own.map(serverPrefix);
  for (const [name, config] of Object.entries(read.value.mcpServers)) {
    if (opts.own.includes(name)) continue;
    if (ownPrefixes.includes(serverPrefix(name))) {
      opts.warn(`mcpServers."${name}" in ${path}: its tools would be named as those of your own server of that name; skipped`);
      continue;
    }
    if (!PLAIN_NAME.test(name)) {
      opts.warn(`mcpServers."${name}" in ${path}: a project's server is named with letters, digits, "-" and single "_" inside (its tools' names must not pass for another server's); skipped`);
      continue;
    }
    const problem = serverConfigProblem(config);
    if (problem) {
      opts.warn(`mcpServers.${name} in ${path}: ${problem}; skipped`);
      continue;
    }
    const entry: McpServerEntry = { name, config, origin: path, project: true };
    const hash = definitionHash(config);
    if (approvals.has("mcp-server", opts.root, name, hash)) approved.push(entry);
    else unapproved.push({ entry, hash });
  }
  return { approved, unapproved };
}

/** How a project's server gets approved, for a run that cannot ask. */
export const APPROVE_HOW = `approve in an interactive shiro here, which asks, or pass --mcp-config ${PROJECT_FILE} to use the file as it is`;

/** The line for servers left unstarted because nobody could approve them: `skipped` (print mode), `not started` (`shiro mcp list`). */
export const skippedNotice = (servers: readonly UnapprovedServer[], outcome = "skipped"): string =>
  `${PROJECT_FILE} defines MCP server${servers.length > 1 ? "s" : ""} ${servers.map((s) => s.entry.name).join(", ")} not approved as ${servers.length > 1 ? "they stand" : "it stands"}: ${outcome} (${APPROVE_HOW})`;

/** What the person is asked, showing exactly what would run. */
export function approvalQuestion(server: UnapprovedServer): string {
  const { config } = server.entry;
  // Where it runs too: `./server.sh` in `../other-project` is not the project's own script.
  const what = config.url !== undefined ? config.url : [config.command!, ...(config.args ?? [])].join(" ") + (config.cwd !== undefined ? ` in ${config.cwd}` : "");
  // As written, `${VAR}` unexpanded: the person sees which of their variables it would be handed.
  const env = Object.entries({ ...config.env, ...config.headers }).map(([k, v]) => `${k}=${v}`);
  const token = config.bearerTokenEnv ? [`bearer token from ${config.bearerTokenEnv}`] : [];
  const given = [...env, ...token];
  return `${PROJECT_FILE} asks to start the MCP server "${server.entry.name}": ${what}${given.length ? ` (${given.join(", ")})` : ""} — start it? (kept for this exact definition)`;
}
