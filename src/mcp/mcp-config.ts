import { z } from "zod";
import { closedObject } from "../text/closed-object.ts";

const varName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name (letters, digits, _)");
const seconds = z.number().positive("must be a number of seconds, > 0");
const toolNames = z.array(z.string().min(1, "must be a tool name as the server lists it"));

/**
 * One server as `.mcp.json`, `--mcp-config` files and config.json's `mcpServers` write it: a program
 * (`command`, `args`, `env`, `cwd`) or a Streamable HTTP endpoint (`url`, `headers`), and how shiro uses it.
 * Closed like every config object: a misspelt key is an error naming the key meant.
 */
export const mcpServerSchema = closedObject({
  type: z
    .enum(["stdio", "http", "streamable-http", "sse"], { error: () => 'must be "stdio" or "http"' })
    .refine((type) => type !== "sse", 'the old HTTP+SSE transport is not supported: use the server\'s Streamable HTTP URL with "type": "http"')
    .optional(),
  command: z.string().min(1, "must be the program to run").optional(),
  args: z.array(z.string()).optional(),
  env: z.record(varName, z.string()).optional(),
  cwd: z.string().min(1, "must be a folder path").optional(),
  url: z
    .string()
    .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), "must be an http(s):// URL")
    .optional(),
  headers: z.record(z.string().min(1), z.string()).optional(),
  /** The variable holding a bearer token for an HTTP server (sent as `Authorization: Bearer …`). */
  bearerTokenEnv: varName.optional(),
  enabled: z.boolean().optional(),
  enabledTools: toolNames.optional(),
  disabledTools: toolNames.optional(),
  startupTimeout: seconds.optional(),
  toolTimeout: seconds.optional(),
  /** The run needs this server: print mode stops when it did not start; the REPL's first model call waits for it. */
  required: z.boolean().optional(),
  /** A program run inside the OS sandbox commands get, at this level; unset, it runs as the person's own program. */
  sandbox: z.enum(["read-only", "workspace-write"], { error: () => 'must be "read-only" or "workspace-write" (leave it out to run the server outside the sandbox)' }).optional(),
});
export type McpServerConfig = z.infer<typeof mcpServerSchema>;

export const mcpServersSchema = z.record(z.string().min(1, "a server needs a name"), mcpServerSchema);

/** The `.mcp.json` shape (a project's own, or a file given with `--mcp-config`). */
export const mcpFileSchema = closedObject({ mcpServers: mcpServersSchema });

/**
 * What is wrong with a server's definition beyond its keys (a program and a URL, neither, keys of the
 * other kind), in one line; undefined when it is fine.
 */
export function serverConfigProblem(server: McpServerConfig): string | undefined {
  const http = server.url !== undefined;
  if (http && server.command !== undefined) return 'has both "command" and "url": a server is a program or an HTTP endpoint';
  if (!http && server.command === undefined) return 'needs "command" (a program to run) or "url" (a Streamable HTTP endpoint)';
  if (server.type === "stdio" && http) return '"type": "stdio" needs "command", not "url"';
  if ((server.type === "http" || server.type === "streamable-http") && !http) return `"type": "${server.type}" needs "url"`;
  const wrong = http ? (["args", "env", "cwd", "sandbox"] as const).find((k) => server[k] !== undefined) : (["headers", "bearerTokenEnv"] as const).find((k) => server[k] !== undefined);
  if (wrong) return `"${wrong}" is for ${http ? "a program (command)" : "an HTTP server (url)"}`;
  return undefined;
}

/** `${VAR}` and `${VAR:-default}` in a value, from the environment (as `.mcp.json` files elsewhere write them). */
export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return "";
  });
  return { value, missing };
}
