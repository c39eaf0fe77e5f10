import { readdir, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import { diskEnv, resolvePath } from "../guard/resolve-path.ts";
import { isSecret } from "../guard/secret-path.ts";
import { LIMITS } from "../registry/limits.ts";
import { definitionHash } from "../store/approvals.ts";
import { commandName, parseCommandFile, type CommandFile } from "./command-file.ts";

/** Whose a command is: the person's own (`$SHIRO_HOME/commands/`) or the project's (`.shiro/commands/`), which may be a stranger's. */
export type CommandScope = "user" | "project";

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

/**
 * Every saved command, one per name: a project's replaces the person's own of the same name (as a
 * project's skill does), and it is asked about before it first runs. Within a scope, shiro's folder
 * wins over Claude Code's, and the file not used is named in one warning. A file that is not a
 * command is skipped with one warning naming it and why.
 */
export async function loadCommands(opts: LoadCommandsOptions): Promise<SavedCommand[]> {
  const folders = commandFolders(opts.home, opts.root, opts.userHome);
  const byName = new Map<string, SavedCommand>();
  const project = await realpath(opts.root).catch(() => opts.root);
  for (const scope of ["user", "project"] as const) {
    const inScope = new Map<string, SavedCommand>();
    for (const folder of folders[scope])
      for (const command of await readFolder(folder, scope, project, opts.warn)) {
        const first = inScope.get(command.name);
        if (first) opts.warn(`command ${command.path} is not used: ${first.path} is /${command.name} too (shiro's folder wins)`);
        else inScope.set(command.name, command);
      }
    for (const command of inScope.values()) byName.set(command.name, command);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function readFolder(dir: string, scope: CommandScope, project: string, warn: (line: string) => void): Promise<SavedCommand[]> {
  let files: string[];
  try {
    files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(".md")).sort();
  } catch {
    return [];
  }
  const commands: SavedCommand[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const problem = await readCommand(path, file, scope, project).then(
      (read) => (typeof read === "string" ? read : void commands.push(read)),
      (err: Error) => `cannot read it (${err.message})`,
    );
    if (problem) warn(`skipping command ${path}: ${problem}`);
  }
  return commands;
}

async function readCommand(path: string, file: string, scope: CommandScope, project: string): Promise<SavedCommand | string> {
  const named = commandName(file);
  if (!named.ok) return named.problem;
  // A link named `deploy.md` to `.env` or out of the project would show, and send, what it leads to.
  if (isSecret(resolvePath(path, diskEnv(project)))) return "it is a secret file (or a link to one)";
  if (scope === "project" && !(await realpath(path)).startsWith(project + sep)) return "it is a link out of the project";
  const handle = Bun.file(path);
  if (handle.size > LIMITS.bodyBytes) return `it is over ${LIMITS.bodyBytes / 1024} KiB`;
  const text = await handle.text();
  const parsed = parseCommandFile(text);
  if (!parsed.ok) return parsed.problem;
  return { ...parsed.command, name: named.name, scope, path, text, hash: definitionHash(text) };
}
