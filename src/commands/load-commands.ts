import { join } from "node:path";
import { readDefinitions, type DefinitionFile, type DefinitionScope } from "../registry/definition-files.ts";
import { commandName, parseCommandFile, type CommandFile } from "./command-file.ts";

/** Whose a command is: the person's own (`$SHIRO_HOME/commands/`) or the project's (`.shiro/commands/`), which may be a stranger's. */
export type CommandScope = DefinitionScope;

export type SavedCommand = CommandFile & {
  name: string;
  scope: CommandScope;
  /** The file it was read from. */
  path: string;
  /** The file's exact text, as a person approves it: what is shown before the first run. */
  text: string;
  /** Of `text`: an approval holds until the file changes. */
  hash: string;
};

/**
 * Where each scope's commands are: shiro's folder, then Claude Code's (`~/.claude/commands/` is the
 * person's own as `$SHIRO_HOME/commands/` is; `.claude/commands/` is the project's, asked about as
 * `.shiro/commands/` is).
 */
export const commandFolders = (home: string, root: string, userHome: string): Record<CommandScope, string[]> => ({
  user: [join(home, "commands"), join(userHome, ".claude", "commands")],
  project: [join(root, ".shiro", "commands"), join(root, ".claude", "commands")],
});

export type LoadCommandsOptions = { home: string; root: string; userHome: string; warn: (line: string) => void };

/** Every saved command, one per name, as registry/definition-files.ts reads them; a file that is not a command is skipped with one warning. */
export function loadCommands(opts: LoadCommandsOptions): Promise<SavedCommand[]> {
  return readDefinitions({ folders: commandFolders(opts.home, opts.root, opts.userHome), root: opts.root, kind: "command", shown: (name) => `/${name}`, parse: commandOf, warn: opts.warn });
}

function commandOf(file: DefinitionFile): SavedCommand | string {
  const named = commandName(file.relative);
  if (!named.ok) return named.problem;
  const parsed = parseCommandFile(file.text);
  if (!parsed.ok) return parsed.problem;
  return { ...parsed.command, name: named.name, scope: file.scope, path: file.path, text: file.text, hash: file.hash };
}
