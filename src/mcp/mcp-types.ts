import { z } from "zod";

/** How to reach a server. The caller computes a stdio server's whole environment and an HTTP server's final headers. */
export type McpServerDef =
  /** `fd4`: bytes the program reads on fd 4 (the OS sandbox's options, kept out of /proc/<pid>/cmdline). */
  | { kind: "stdio"; command: string; args: string[]; cwd: string; env: Record<string, string>; fd4?: Uint8Array; afterExit?: () => void }
  | { kind: "http"; url: string; headers: Record<string, string> };

// Only what shiro reads is checked; the rest of what a server sends is kept as it came.
const json = z.record(z.string(), z.unknown());

export const toolInfo = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  // Passed through as the server sent it: fixing a schema for the model is the caller's business.
  inputSchema: json.catch({}),
  outputSchema: json.optional().catch(undefined),
  annotations: json.optional().catch(undefined),
});
export type McpToolInfo = z.infer<typeof toolInfo>;

export const toolsPage = z.looseObject({ tools: z.array(toolInfo), nextCursor: z.string().optional() });

/** text | image | audio | resource | resource_link, as the server sent it. */
export const content = z.looseObject({ type: z.string() });
export type McpContent = z.infer<typeof content>;

export const callResult = z.looseObject({ content: z.array(content).default([]), structuredContent: z.unknown().optional(), isError: z.boolean().optional() });
export type McpCallResult = z.infer<typeof callResult>;

export const initializeResult = z.looseObject({
  protocolVersion: z.string(),
  capabilities: json.catch({}),
  serverInfo: z.looseObject({ name: z.string(), version: z.string().optional() }).catch({ name: "(unnamed)" }),
  instructions: z.string().optional(),
});
export type McpServerInfo = { name: string; version?: string };
