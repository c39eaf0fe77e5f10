import { z } from "zod";
import { clipLine } from "../text/one-line.ts";
import { defineTool, ToolError, type AnyTool } from "../tools/tool.ts";
import { callResultOutput } from "./call-result.ts";
import type { McpClient } from "./mcp-client.ts";
import type { McpToolInfo } from "./mcp-types.ts";
import { toolParameters } from "./tool-parameters.ts";

export type McpToolSpec = {
  /** The name the model sees (`mcp__<server>__<tool>`). */
  name: string;
  server: string;
  /** The tool as the server lists it: the call goes by its raw name. */
  info: McpToolInfo;
  timeoutMs: number;
  maxTimeoutMs: number;
};

// The arguments reach the server as the model wrote them: an object, nothing stripped.
const argsSchema = z.record(z.string(), z.unknown());

/**
 * A server's tool as one of shiro's: its schema sent as written (non-strict), asking by default like a
 * command — its annotations (`readOnlyHint` and such) grant nothing — and its result read as the model
 * should see it. Progress shows on the status line; a timeout or Esc cancels the call on the server.
 */
export function mcpTool(spec: McpToolSpec, server: () => Pick<McpClient, "callTool"> | undefined): AnyTool {
  const { info } = spec;
  return defineTool({
    name: spec.name,
    description: info.description ?? info.title ?? `${info.name} (from the MCP server ${spec.server})`,
    schema: argsSchema,
    parameters: toolParameters(info.inputSchema),
    kind: "write",
    subject: (args) => ({ action: JSON.stringify(args) }),
    async run(args, ctx) {
      const client = server();
      if (!client) throw new ToolError(`the MCP server ${spec.server} is not connected (see /mcp); ${spec.name} cannot run now`);
      try {
        const result = await client.callTool(info.name, args, {
          signal: ctx.signal,
          timeoutMs: spec.timeoutMs,
          maxTimeoutMs: spec.maxTimeoutMs,
          onProgress: (progress, total, message) => ctx.progress?.(`${progress}${total !== undefined ? `/${total}` : ""}${message ? `: ${clipLine(message, 200)}` : ""}`),
        });
        return callResultOutput(result);
      } catch (err) {
        if (ctx.signal.aborted) throw new ToolError(`${spec.name} was cancelled by the user (the server was told to stop)`);
        throw new ToolError(`${spec.name} failed: ${(err as Error).message}`);
      }
    },
  });
}
