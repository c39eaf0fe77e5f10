import type { SavedCommands } from "../commands/saved-commands.ts";

export type CommandPrompt = { ok: true; prompt: string; model?: string } | { ok: false; message: string };

/**
 * `shiro -p "/review src/x.ts"`: the prompt a saved command makes, or why it is not sent (a project
 * command nobody approved: print mode cannot ask). Undefined when the prompt names no saved command,
 * so `/usr/bin/env is broken` is sent as written.
 */
export async function commandPrompt(prompt: string, commands: SavedCommands, signal: AbortSignal, warn: (line: string) => void): Promise<CommandPrompt | undefined> {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(prompt);
  if (!match) return undefined;
  const command = await commands.find(match[1]!.toLowerCase());
  if (!command) return undefined;
  const prepared = await commands.prepare(command, match[2]!, { show: warn, signal });
  if (!prepared.ok) return prepared;
  for (const warning of prepared.warnings) warn(warning);
  return { ok: true, prompt: prepared.prompt, ...(prepared.model ? { model: prepared.model } : {}) };
}
