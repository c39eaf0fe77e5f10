import { z } from "zod";
import type { McpServerEntry } from "../mcp/server-plan.ts";

const pair = z.object({ name: z.string().min(1), value: z.string() });
const stdio = z.looseObject({ name: z.string().min(1), command: z.string().min(1), args: z.array(z.string()).default([]), env: z.array(pair).default([]) });
const http = z.looseObject({ type: z.literal("http"), name: z.string().min(1), url: z.string().min(1), headers: z.array(pair).default([]) });

const ORIGIN = "the editor's session/new";

/**
 * The MCP servers an editor passes with `session/new` or `session/load`, as entries of the person's own
 * configuration (the editor is theirs: no project approval), started by shiro's MCP service for that
 * session. Each is `required`: the first prompt waits for it (the editor named it for this session),
 * and one that fails is said and left out. A server of another kind (SSE, not advertised) or malformed
 * is left out too, said in `skipped`.
 */
export function clientServers(servers: readonly unknown[]): { entries: McpServerEntry[]; skipped: string[] } {
  const entries: McpServerEntry[] = [];
  const skipped: string[] = [];
  for (const server of servers) {
    const named = (server as { name?: unknown })?.name;
    const asHttp = http.safeParse(server);
    const asStdio = stdio.safeParse(server);
    if (asHttp.success) {
      const { name, url, headers } = asHttp.data;
      entries.push({ name, origin: ORIGIN, config: { url, required: true, ...(headers.length ? { headers: Object.fromEntries(headers.map((h) => [h.name, h.value])) } : {}) } });
    } else if (asStdio.success && (server as { type?: unknown }).type === undefined) {
      const { name, command, args, env } = asStdio.data;
      entries.push({ name, origin: ORIGIN, config: { command, args, required: true, ...(env.length ? { env: Object.fromEntries(env.map((e) => [e.name, e.value])) } : {}) } });
    } else {
      skipped.push(`MCP server ${typeof named === "string" ? `"${named}"` : "without a name"} from the editor was not started: shiro takes stdio and HTTP servers, each with a name`);
    }
  }
  return { entries, skipped };
}
