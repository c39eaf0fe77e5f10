import { createHash } from "node:crypto";

/** The API takes function names of these characters, at most this long. */
const MAX_NAME = 64;
const OUTSIDE = /[^A-Za-z0-9_-]/g;

export const MCP_PREFIX = "mcp__";

/** A server's part of its tools' names: `mcp__<server>__` matches every one (as `--allow 'mcp__github__*'` does). */
export const serverPrefix = (server: string) => `${MCP_PREFIX}${server.replace(OUTSIDE, "_")}__`;

export type NamedTool = { server: string; tool: string; name: string };

/**
 * The names the model sees, `mcp__<server>__<tool>`, for tools in the order given (servers by name, each
 * server's tools as it lists them, so the same tools get the same names every run). A character the API
 * does not take becomes `_`; a name over 64 characters, or one another tool already has, ends in a short
 * hash of its server and raw name instead. The raw names are kept: a call goes to the server by them.
 */
export function toolNames(tools: readonly { server: string; tool: string }[]): NamedTool[] {
  const used = new Set<string>();
  return tools.map(({ server, tool }) => {
    let name = `${serverPrefix(server)}${tool.replace(OUTSIDE, "_")}`;
    if (name.length > MAX_NAME || used.has(name)) {
      const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
      name = `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
    }
    used.add(name);
    return { server, tool, name };
  });
}
