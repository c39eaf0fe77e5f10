import { shellCommands } from "../guard/shell-commands.ts";

// git options that run code or point git elsewhere; a plain git command has none of them.
const CODE_OPTIONS = /^(-c|--config-env|--exec-path|--git-dir|--work-tree)(=|$)/;

/**
 * Whether `command` is only git (and `cd`), as written: no redirection, no substitution, no `VAR=`
 * prefix, no wrapper, no option that runs code (`-c core.pager=…`, `-c alias.x=!…`). Only such a
 * command may write the project's `.git` (commit, branch, fetch); any other could wipe its history.
 */
export function isPlainGit(command: string, cwd: string, home: string): boolean {
  const commands = shellCommands(command, { cwd, home });
  if (commands.length === 0) return false;
  return commands.every((c) => {
    if (c.redirects.length || c.substitutions.length || c.written[0] !== c.words[0]) return false;
    if (c.name === "cd") return true;
    if (c.name !== "git" || c.words[0] !== "git") return false;
    return !globalOptions(c.words).some((w) => CODE_OPTIONS.test(w));
  });
}

/** git's own options, before its subcommand (`-C dir` takes the next word). */
function globalOptions(words: string[]): string[] {
  const options: string[] = [];
  for (let i = 1; i < words.length && words[i]!.startsWith("-"); i++) {
    options.push(words[i]!);
    if (words[i] === "-C" || words[i] === "-c" || words[i] === "--git-dir" || words[i] === "--work-tree") i++;
  }
  return options;
}
