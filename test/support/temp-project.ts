import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AnyTool, ToolContext, ToolOutput } from "../../src/tools/tool.ts";
import { ToolError } from "../../src/tools/tool.ts";
import { testToolEnv } from "./no-secrets.ts";

/** A real temp folder filled with `files` (path → content), plus a ToolContext rooted there. */
export function tempProject(files: Record<string, string | Uint8Array> = {}) {
  const root = mkdtempSync(join(tmpdir(), "shiro-tools-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const ctx = (extra: Partial<ToolContext> = {}): ToolContext => ({ root, signal: new AbortController().signal, ...extra, env: extra.env ?? testToolEnv });
  return { root, ctx, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs a tool with schema-checked args, as the agent loop would. */
export async function call(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolOutput> {
  return tool.run(tool.schema.parse(args), ctx);
}

/** The message of the ToolError a call throws (fails the test when it does not throw one). */
export async function toolError(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<string> {
  try {
    await call(tool, args, ctx);
  } catch (err) {
    if (err instanceof ToolError) return err.message;
    throw err;
  }
  throw new Error(`${tool.name} did not fail`);
}
