import { ruleNamesTool, type Rule } from "../guard/rules.ts";
import { didYouMean } from "../text/nearest.ts";
import { MCP_PREFIX, serverPrefix } from "./tool-names.ts";

/**
 * A line for each `--allow`/`--deny` naming MCP tools of no server this run knows: a deny rule for a
 * misspelt server would silently never match. Only the flags are judged — config.json's rules may name
 * a server another project's `.mcp.json` brings.
 */
export function unknownServerRules(rules: readonly Rule[], servers: readonly string[]): string[] {
  const lines: string[] = [];
  for (const rule of rules) {
    const tool = rule.tool;
    if (!rule.source?.startsWith("--") || !tool?.startsWith(MCP_PREFIX)) continue;
    // A tool name of the server itself (exact), or a glob that would match one (`mcp__git*`).
    if (servers.some((s) => tool.startsWith(serverPrefix(s)) || ruleNamesTool(tool, `${serverPrefix(s)}x`))) continue;
    const named = tool.slice(MCP_PREFIX.length).split("__")[0]!;
    const hint = didYouMean(named, servers) || (servers.length ? ` (servers: ${servers.join(", ")})` : " (none is configured)");
    lines.push(`${rule.source} ${JSON.stringify(tool)} names no MCP server of this run: no server "${named}"${hint}; the rule matches nothing`);
  }
  return lines;
}
