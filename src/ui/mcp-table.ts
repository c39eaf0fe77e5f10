import type { ServerView } from "../mcp/mcp-servers.ts";
import { alignColumns } from "../text/align-columns.ts";

/** One row per server: name, state, tools offered (of those it lists), what it runs and speaks, its last error. */
export function mcpTable(views: readonly ServerView[], width: number): string[] {
  const rows = views.map((v) => [
    v.name,
    v.status + (v.required ? " (required)" : ""),
    v.status === "connected" ? `${v.tools}${v.listed !== v.tools ? ` of ${v.listed}` : ""} tools` : "",
    v.protocolVersion ? `${v.serverInfo?.name ?? ""}${v.serverInfo?.version ? ` ${v.serverInfo.version}` : ""} (${v.protocolVersion})` : "",
    v.error ?? "",
  ]);
  return alignColumns(rows, { width });
}
