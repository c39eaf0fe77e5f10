/** What a `git …` command runs: its subcommand and that subcommand's arguments, past git's own options. */
export type GitInvocation = {
  sub: string | undefined;
  args: string[];
  /** The script of a shell alias given inline (`-c alias.x='!rm -rf /'`), which git runs with `args`. */
  shellAlias?: string;
};

// git's global options that take the next word as their value (`--git-dir .git`); `--opt=value` is one word.
const VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--shallow-file", "--attr-source", "--super-prefix"]);
const MAX_ALIASES = 8;

/**
 * Parses `git [global options] <subcommand> [args]` as git does, so a global option's value (`-C dir`,
 * `--git-dir .git`) is never taken for the subcommand, and follows aliases defined on the command line
 * (`git -c alias.p=push p -f` runs `push -f`).
 */
export function gitInvocation(words: string[]): GitInvocation {
  const aliases = new Map<string, string>();
  let i = 1;
  while (i < words.length && words[i]!.startsWith("-")) {
    const option = words[i]!;
    if (option === "-c") recordAlias(words[i + 1] ?? "", aliases);
    i += VALUED.has(option) ? 2 : 1;
  }
  let sub = words[i];
  let args = words.slice(i + 1);
  for (let hops = 0; sub !== undefined && hops < MAX_ALIASES; hops++) {
    const expansion = aliases.get(sub.toLowerCase());
    if (expansion === undefined) break;
    if (expansion.startsWith("!")) return { sub, args, shellAlias: expansion.slice(1) };
    const [next, ...more] = expansion.split(/\s+/).filter(Boolean);
    aliases.delete(sub.toLowerCase()); // git refuses an alias loop; stopping here is enough
    sub = next;
    args = [...more, ...args];
  }
  return { sub, args };
}

function recordAlias(setting: string, aliases: Map<string, string>): void {
  const match = /^alias\.([^=]+)=([\s\S]*)$/i.exec(setting);
  if (match) aliases.set(match[1]!.toLowerCase(), match[2]!.trim());
}
