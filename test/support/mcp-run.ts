/**
 * A print-mode run of the binary with MCP servers: a temp project holding a `--mcp-config` file of the
 * servers given, the strict server driven by a scripted model.
 */
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./run-shiro.ts";
import { scriptedJob, type JobResult } from "./scripted-job.ts";
import type { Step } from "./scripts.ts";
import { EVERYTHING } from "./mcp-servers.ts";

export const TOOL_SERVER = join(import.meta.dir, "../fixtures/mcp/tool-server.ts");

/** server-everything over stdio, as a person's config names it. */
export const everything = (extra: Record<string, unknown> = {}) => ({ command: "node", args: [EVERYTHING, "stdio"], required: true, ...extra });
/** The small tool server: `count` tools, options as its argv takes them. */
export const toolServer = (args: (string | number)[], extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [TOOL_SERVER, ...args.map(String)], ...extra });

/**
 * The tool server as a sandboxed one must be: inside the project (the sandbox hides the rest of /tmp and
 * the home, where this checkout may be). Copied into `project`, started by its relative path.
 */
export function boxedToolServer(project: string, args: (string | number)[], extra: Record<string, unknown>) {
  copyFileSync(TOOL_SERVER, join(project, "tool-server.ts"));
  return { command: process.execPath, args: ["./tool-server.ts", ...args.map(String)], ...extra };
}

export type McpJob = JobResult & { project: string };

/** Runs `steps` with `servers` in a `--mcp-config` file (or none when `servers` is undefined), in a fresh project. */
export async function mcpJob(
  steps: Step[],
  opts: { servers?: Record<string, unknown>; args?: string[]; home?: string; env?: Record<string, string | undefined>; wrap?: readonly string[]; project?: (dir: string) => void; after?: (dir: string) => void },
): Promise<McpJob> {
  const project = tempDir("mcp");
  try {
    const config = opts.servers ? ["--mcp-config", join(project, "servers.json")] : [];
    if (opts.servers) writeFileSync(join(project, "servers.json"), JSON.stringify({ mcpServers: opts.servers }));
    opts.project?.(project);
    const run = await scriptedJob(steps, { cwd: project, args: [...config, ...(opts.args ?? [])], ...(opts.home ? { home: opts.home } : {}), ...(opts.env ? { env: opts.env } : {}), ...(opts.wrap ? { wrap: opts.wrap } : {}) });
    opts.after?.(project);
    return { ...run, project };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** The MCP tools a request was sent, by name. */
export const mcpToolsOf = (body: any): any[] => (body?.tools ?? []).filter((t: any) => t.name.startsWith("mcp__"));
