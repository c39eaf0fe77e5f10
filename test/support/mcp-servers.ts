import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { McpClient } from "../../src/mcp/mcp-client.ts";
import type { McpError } from "../../src/mcp/mcp-error.ts";
import type { McpCallResult, McpServerDef } from "../../src/mcp/mcp-types.ts";

const ROOT = join(import.meta.dir, "../..");

/** server-everything's entry point (a dev dependency); it runs under node. */
export const EVERYTHING = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const HOSTILE = join(ROOT, "test/fixtures/mcp/hostile-server.ts");

/** Just enough environment to find node and bun: what a server sees is what the test gives it. */
export const serverEnv = (extra: Record<string, string> = {}): Record<string, string> => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra });

export const everythingStdio = (env: Record<string, string> = serverEnv()): McpServerDef => ({ kind: "stdio", command: "node", args: [EVERYTHING, "stdio"], cwd: ROOT, env });

export const hostile = (mode: string): McpServerDef => ({ kind: "stdio", command: process.execPath, args: [HOSTILE, mode], cwd: ROOT, env: serverEnv() });

/** True once `pid` is gone (or only a zombie waiting for a reaper). */
export function isGone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] === "Z";
  } catch {
    return true;
  }
}

/** server-everything's 5-second operation, aborted after `afterMs`: the error it ended with. */
export async function abortedOperation(client: McpClient, afterMs: number): Promise<{ err: McpError }> {
  const abort = new AbortController();
  setTimeout(() => abort.abort(), afterMs);
  const err = (await client.callTool("trigger-long-running-operation", { duration: 5, steps: 5 }, { signal: abort.signal }).catch((e) => e)) as McpError;
  return { err };
}

export const textOf = (result: McpCallResult): string => result.content.map((c) => c.text).join("");
