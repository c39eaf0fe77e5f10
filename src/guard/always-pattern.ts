import type { CommandForms } from "./command-forms.ts";
import { literalPattern } from "./glob-match.ts";
import { scriptSource } from "./script-source.ts";
import { SHELLS, type ShellCommand } from "./shell-commands.ts";

// Programs whose first argument names what they do (`git log`, `npm test`, `make build`, `python3 x.py`).
const SUBCOMMANDS = new Set([
  ...["git", "npm", "pnpm", "yarn", "bun", "deno", "npx", "bunx", "pnpx", "cargo", "rustup", "go", "make", "just", "gh"],
  ...["docker", "podman", "kubectl", "helm", "terraform", "pip", "pip3", "uv", "poetry", "apt", "apt-get", "brew", "dotnet", "mvn", "gradle", "composer"],
]);
// Subcommands that run a program named next (`npm run build`, `uv run pytest`, `npx tsc`-style `bun x tsc`).
const RUNNERS = new Set(["run", "exec", "x", "dlx", "run-script"]);
// Programs that destroy or overwrite what they are given: an "always" approves only the exact command.
const DESTRUCTIVE = new Set(["rm", "rmdir", "unlink", "mv", "dd", "shred", "truncate", "chmod", "chown", "chgrp", "wipefs", "kill", "pkill", "killall", "find"]);
// Subcommands that throw work away, of git or of any program with subcommands (`docker rm`, `terraform destroy`).
const DESTRUCTIVE_GIT = new Set(["push", "reset", "clean", "checkout", "restore", "switch", "rebase", "rm", "branch", "tag", "stash", "filter-branch", "update-ref", "reflog", "gc", "prune"]);
const DESTRUCTIVE_SUBS = new Set(["rm", "rmi", "delete", "destroy", "prune", "purge", "clean"]);

/**
 * What an "always" answer approves for one command: its program and subcommand (`git log *`,
 * `npm test *`, `npm run build *`), its program and script (`python3 x.py *`), the program alone for
 * others (`ls *`); the exact command when it destroys (`rm a.txt`, `git push origin main`, `find …`),
 * runs code given inline or from stdin (`python3 -c '…'`, `bash -c '…'`), or has no subcommand (`git --version`).
 */
export function alwaysPattern(cmd: ShellCommand, forms: CommandForms): string {
  const { words, program } = forms;
  const last = words[program] === undefined || DESTRUCTIVE.has(cmd.name) || cmd.name.startsWith("mkfs") ? undefined : reach(cmd, words, program);
  return last === undefined ? literalPattern(forms.names.at(-1)!) : `${literalPattern(words.slice(0, last + 1).join(" "))} *`;
}

/** The last word an approval fixes (the program, its subcommand or its script); undefined for the exact command. */
function reach(cmd: ShellCommand, words: string[], program: number): number | undefined {
  if (SHELLS.has(cmd.name) || scriptSource(cmd.name, cmd.words)) {
    const script = scriptWord(cmd);
    return script === undefined ? undefined : program + script;
  }
  if (!SUBCOMMANDS.has(cmd.name)) return program;
  const at = firstOperand(words, program);
  if (at === -1) return undefined;
  const sub = words[at]!;
  if (DESTRUCTIVE_SUBS.has(sub) || (cmd.name === "git" && DESTRUCTIVE_GIT.has(sub))) return undefined;
  if (!RUNNERS.has(sub)) return at;
  const next = firstOperand(words, at);
  return next === -1 ? undefined : next;
}

/** The index of the first word after `from` that is not an option, or -1. */
function firstOperand(words: string[], from: number): number {
  for (let i = from + 1; i < words.length; i++) if (!words[i]!.startsWith("-")) return i;
  return -1;
}

/**
 * Where a shell or an interpreter's script is named (`bash x.sh`, `python3 x.py`, `python3 -m pytest`);
 * undefined when the code is in the command (`-c '…'`, `-e '…'`) or comes from stdin.
 */
function scriptWord(cmd: ShellCommand): number | undefined {
  if (SHELLS.has(cmd.name)) {
    if (cmd.words.some((w, k) => k > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w))) return undefined;
    const at = firstOperand(cmd.words, 0);
    return at === -1 ? undefined : at;
  }
  const source = scriptSource(cmd.name, cmd.words);
  if (source?.from !== "word") return undefined;
  const at = cmd.words.indexOf(source.word);
  const before = cmd.words[at - 1] ?? "";
  return at > 0 && (!before.startsWith("-") || before === "--" || before === "-m") ? at : undefined;
}
