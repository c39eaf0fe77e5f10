import { UsageError } from "../exit/usage-error.ts";
import type { Flags } from "../services/settings.ts";
import { parseFlags } from "./args.ts";

/** What the editor does instead, for each flag `shiro acp` refuses. */
const REFUSED: [keyof Flags, string][] = [
  ["print", "-p: the editor shows the turns"],
  ["json", "--json: the editor shows the turns"],
  ["continue", "-c: the editor opens a session with session/load"],
  ["resume", "-r: the editor opens a session with session/load"],
  ["ephemeral", "--ephemeral: a session made from an editor is saved, so -c and undo work on it"],
  ["timeout", "--timeout: the editor cancels a turn"],
  ["maxCost", "--max-cost limits a print-mode run"],
  ["outputSchema", "--output-schema shapes a print-mode answer"],
  ["output", "--output writes a print-mode answer"],
];

/** `shiro acp [options]`: the session options it runs with; a prompt, or an option only print mode or the REPL can honour, is refused. */
export function acpFlags(args: string[]): Flags {
  const flags = parseFlags(args);
  if (flags.command) throw new UsageError(`shiro acp takes options, not "${flags.command.name}" (see shiro acp --help)`);
  if (flags.prompt !== undefined) throw new UsageError("shiro acp takes no prompt: the editor sends them (docs/editors.md)");
  if (flags.images.length) throw new UsageError("shiro acp takes no -i: the editor sends images with a prompt");
  const refused = REFUSED.find(([flag]) => flags[flag] !== undefined && flags[flag] !== false);
  if (refused) throw new UsageError(`shiro acp takes no ${refused[1]}`);
  return flags;
}
