import { basename, dirname } from "node:path";
import { gitInvocation } from "./git-invocation.ts";
import type { ShellCommand } from "./shell-commands.ts";

/** One command of a script as the rules see it. */
export type CommandForms = {
  /** Forms any rule may match: as written, and (when that is what runs) with its program normalised. */
  names: string[];
  /** Forms only deny and ask rules match: `sudo rm x` is `rm x` to a deny rule for `rm *`, never to an allow. */
  aliases: string[];
  /** The words of the form an allow rule for the program matches (`git push`), from `program` on. */
  words: string[];
  program: number;
};

// Where the system's programs live: `/usr/bin/rm` is `rm`, while a `./rm` in the project is a program of its own.
const SYSTEM_BINS = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin", "/opt/homebrew/bin"]);

/**
 * The forms of a command rules match. The program is normalised — wrappers that only start it
 * (`command`, `exec`, `nohup`, `timeout 5`, `xargs`, `env`), a system folder (`/bin/rm`), git's global
 * options (`git -C dir -c k=v push` → `git push`) — so `rm *` and `git push *` match what runs. Forms
 * that change what runs (`sudo`, `VAR=x`, `./rm`, another letter case) are aliases: a deny or ask rule
 * still matches them, an allow does not. A command that deletes files as `rm` does (`unlink`,
 * `find … -delete`, `shred -u`) has an `rm` alias, so a deny rule for `rm` stops it too.
 */
export function commandForms(cmd: ShellCommand): CommandForms {
  const redirects = cmd.redirects.map((r) => `${r.fd ?? ""}${r.op} ${r.target}`);
  const text = (words: string[]) => [...words, ...redirects].join(" ");
  const written = text(cmd.written);
  const program = cmd.words[0];
  if (program === undefined) return { names: [written], aliases: [], words: cmd.written, program: cmd.written.length };
  const args = cmd.name === "git" ? gitArgs(cmd.words) : cmd.words.slice(1);
  const bare = basename(program);
  const runsAsWritten = cmd.plainStart && (bare === program || SYSTEM_BINS.has(dirname(program)));
  const normal = [bare, ...args];
  const names = unique([written, ...(runsAsWritten ? [text(normal)] : [])]);
  const deletes = deletesLikeRm(cmd) ? [text(["rm", ...cmd.words.slice(1)])] : [];
  const aliases = unique([text([cmd.name, ...args]), ...deletes]).filter((a) => !names.includes(a));
  return runsAsWritten ? { names, aliases, words: normal, program: 0 } : { names, aliases, words: cmd.written, program: cmd.written.length - cmd.words.length };
}

/** git's subcommand and its arguments, past git's global options (which change where it works, not what). */
function gitArgs(words: string[]): string[] {
  const { sub, args } = gitInvocation(words);
  return sub === undefined ? words.slice(1) : [sub, ...args];
}

function deletesLikeRm(cmd: ShellCommand): boolean {
  if (cmd.name === "unlink") return true;
  if (cmd.name === "find") return cmd.words.includes("-delete");
  return cmd.name === "shred" && cmd.words.some((w, k) => k > 0 && (/^-[a-z]*u/.test(w) || w.startsWith("--remove")));
}

const unique = (values: string[]) => [...new Set(values)];
