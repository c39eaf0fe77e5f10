import { isAbsolute, join } from "node:path";

/** What a `git …` command runs: its subcommand and that subcommand's arguments, past git's own options. */
export type GitInvocation = {
  sub: string | undefined;
  args: string[];
  /** The script of a shell alias given inline (`-c alias.x='!rm -rf /'`), which git runs with `args`. */
  shellAlias?: string;
  /** Settings given on the command line: `-c key=value`, and `--config-env=key=VAR` as the value `$VAR`. */
  settings: { key: string; value: string }[];
  /** The folder `-C` moves git to, relative to where it starts (`.` without `-C`). */
  dir: string;
  /** `--exec-path=dir`: where git takes the programs of its subcommands from. */
  execPath?: string;
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
  const settings: GitInvocation["settings"] = [];
  let dir = ".";
  let execPath: string | undefined;
  let i = 1;
  while (i < words.length && words[i]!.startsWith("-")) {
    const option = words[i]!;
    const value = words[i + 1] ?? "";
    if (option === "-c") settings.push(setting(value, (v) => v));
    else if (option === "--config-env" || option.startsWith("--config-env=")) settings.push(setting(option === "--config-env" ? value : option.slice(13), (v) => `$${v}`));
    else if (option === "-C") dir = isAbsolute(value) ? value : join(dir, value);
    else if (option.startsWith("--exec-path=")) execPath = option.slice(12);
    i += VALUED.has(option) ? 2 : 1;
  }
  const aliases = new Map(settings.flatMap(({ key, value }) => (key.startsWith("alias.") ? [[key.slice(6), value.trim()] as const] : [])));
  let sub = words[i];
  let args = words.slice(i + 1);
  const found = { settings, dir, ...(execPath !== undefined ? { execPath } : {}) };
  for (let hops = 0; sub !== undefined && hops < MAX_ALIASES; hops++) {
    const expansion = aliases.get(sub.toLowerCase());
    if (expansion === undefined) break;
    if (expansion.startsWith("!")) return { sub, args, shellAlias: expansion.slice(1), ...found };
    const [next, ...more] = expansion.split(/\s+/).filter(Boolean);
    aliases.delete(sub.toLowerCase()); // git refuses an alias loop; stopping here is enough
    sub = next;
    args = [...more, ...args];
  }
  return { sub, args, ...found };
}

/** `key=value` (git's keys are case-blind, so the key is lower-cased); a key alone is git's `true`. */
function setting(text: string, value: (raw: string) => string): { key: string; value: string } {
  const at = text.indexOf("=");
  return at === -1 ? { key: text.toLowerCase(), value: "true" } : { key: text.slice(0, at).toLowerCase(), value: value(text.slice(at + 1)) };
}
