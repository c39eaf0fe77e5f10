import type { ShellCommand } from "./shell-commands.ts";

// Commands that make a name run something else later in the script: `alias r=rm`, `hash -p /bin/rm r`, `function r { rm …; }`.
const REDEFINES: Record<string, (args: string[]) => boolean> = {
  alias: (args) => args.some((a) => a.includes("=")),
  hash: (args) => args.some((a) => /^-[a-z]*p/.test(a)),
  function: () => true,
  enable: (args) => args.length > 0,
};

/**
 * Whether the program of a command is only known when it runs: an expansion (`$X`, `${X}`, `$(echo rm)`,
 * `` `echo rm` ``), a glob (`/bin/r?`) or a brace list (`{rm,x}`) in its name — or a command that
 * redefines what a name runs. Nothing can show such a command is not a program a deny rule names.
 */
export function computedProgram(cmd: ShellCommand): boolean {
  const program = cmd.words[0];
  if (program === undefined || program === "[" || program === "[[") return false;
  if (REDEFINES[cmd.name]?.(cmd.words.slice(1))) return true;
  return /[$`*?]/.test(program) || /\[.*\]/.test(program) || /\{[^}]*(,|\.\.)[^}]*\}/.test(program);
}
