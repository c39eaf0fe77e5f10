import { existsSync } from "node:fs";
import type { CommandCalls, CommandTurn, SavedCommands } from "../commands/saved-commands.ts";
import { didYouMean } from "../text/nearest.ts";

export type CommandPrompt = { ok: true; prompt: string; turn: CommandTurn } | { ok: false; message: string; unknown?: true };

/**
 * `shiro -p "/review src/x.ts"` (or an editor's `/review`): the prompt a saved command makes, or why it is not sent (a project
 * command nobody approved: print mode cannot ask; a command that does not exist). Undefined when the
 * prompt names no command, so `/usr/bin/env is broken` or `/tmp is full` (paths) is sent as written.
 */
export async function commandPrompt(prompt: string, commands: SavedCommands, calls: CommandCalls, signal: AbortSignal, warn: (line: string) => void, builtins: readonly string[] = []): Promise<CommandPrompt | undefined> {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(prompt);
  if (!match) return undefined;
  const command = await commands.find(match[1]!.toLowerCase());
  if (!command) return unknownCommand(match[1]!, (await commands.list()).map((c) => c.name), builtins);
  const prepared = await commands.prepare(command, match[2]!, { show: warn, signal, calls });
  if (!prepared.ok) return prepared;
  for (const warning of prepared.warnings) warn(warning);
  const { model, tools, images } = prepared;
  return { ok: true, prompt: prepared.prompt, turn: { ...(model ? { model } : {}), ...(tools ? { tools } : {}), ...(images ? { images } : {}) } };
}

/** A `/name` that is no saved command: a typo the model must not be sent (a path, one segment or more, is text). */
function unknownCommand(name: string, saved: readonly string[], builtins: readonly string[]): CommandPrompt | undefined {
  if (name.includes("/") || existsSync(`/${name}`)) return undefined;
  const asText = "to send it as text, begin the prompt with a space";
  if (builtins.includes(name.toLowerCase())) return { ok: false, unknown: true, message: `/${name} is a command of the interactive shiro, not of print mode; ${asText}` };
  const known = saved.length ? ` (saved commands here: ${saved.map((n) => `/${n}`).join(", ")})` : " (no saved command here: docs/commands.md)";
  return { ok: false, unknown: true, message: `unknown command /${name}${didYouMean(name, saved, (n) => `/${n}`) || known}; ${asText}` };
}
