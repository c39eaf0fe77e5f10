import { shownAsIs } from "../text/terminal-text.ts";
import { mcpTable } from "../ui/mcp-table.ts";
import type { ReplCommand, ReplContext } from "./repl-command.ts";

/** `/mcp`: the servers of this run as they stand. */
export const mcpCommand: ReplCommand = {
  name: "mcp",
  summary: "list the MCP servers: state, tools, last error",
  run: async (ctx: ReplContext) => {
    const views = ctx.current.services.mcp.servers.views();
    if (views.length === 0) return ctx.print("no MCP servers (add them to mcpServers in config.json or pass --mcp-config; docs/mcp.md)");
    ctx.print(mcpTable(views, ctx.columns() - 3).map((line) => `  ${line}`).join("\n"));
  },
};

/** Asks about each of the project's servers not approved as they stand; each one approved starts at once. */
export async function askProjectServers(ctx: Pick<ReplContext, "current" | "confirm" | "print">): Promise<void> {
  const mcp = ctx.current.services.mcp;
  for (const server of mcp.unapproved) {
    if (await ctx.confirm(shownAsIs(mcp.question(server)))) {
      await mcp.approve(server);
      ctx.print(`MCP server "${server.entry.name}" approved as it stands; starting it (/mcp shows how it goes)`);
    } else ctx.print(`MCP server "${server.entry.name}" not started (asked again next time)`);
  }
}
