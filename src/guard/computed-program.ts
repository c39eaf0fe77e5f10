import type { ShellCommand } from "./shell-commands.ts";

/**
 * Whether the program of a command is only known when it runs: an expansion (`$X`, `${X}`, `$(echo rm)`,
 * `` `echo rm` ``), a glob (`/bin/r?`) or a brace list (`{rm,x}`) in its name. Nothing can show such a
 * command is not a program a deny rule names.
 */
export function computedProgram(cmd: ShellCommand): boolean {
  const program = cmd.words[0];
  if (program === undefined || program === "[" || program === "[[") return false;
  return /[$`*?]/.test(program) || /\[.*\]/.test(program) || /\{[^}]*(,|\.\.)[^}]*\}/.test(program);
}
