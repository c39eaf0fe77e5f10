import { basename } from "node:path";
import { gitCode } from "./git-code.ts";
import { gitInvocation } from "./git-invocation.ts";
import { quoteWords } from "./quote-words.ts";
import { absolutePath } from "./resolve-path.ts";
import { parseShell, type Redirect, type Substitution } from "./shell-words.ts";

/** One command bash would run, wherever it hides (chains, pipes, `$( )`, `bash -c '…'`, `sudo`, `xargs`). */
export type ShellCommand = {
  /** The words as written, wrappers included (`sudo rm -rf x`). */
  written: string[];
  /** The words from the program on (`rm -rf x`); `name` is its lower-cased basename (`/bin/RM` → `rm`). */
  words: string[];
  name: string;
  /**
   * False when what comes before the program changes who runs it or with what environment (`sudo`,
   * `VAR=x`, `env X=1`, `chroot`); wrappers that only start it (`nohup`, `timeout 5`, `xargs`, `exec`) keep it true.
   */
  plainStart: boolean;
  redirects: Redirect[];
  substitutions: Substitution[];
  /** The directory relative paths are taken from, following `cd` earlier in the script. */
  cwd: string;
  /** The program names of every stage of its pipeline, and which stage this is. */
  pipeline: string[];
  stage: number;
};

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish"]);
const KEYWORDS = new Set(["{", "}", "!", "if", "then", "elif", "else", "fi", "do", "done", "while", "until", "esac", "time", "builtin"]);
// Clauses whose words are a name and values, never a program: `for f in a b`, `select x in …`, `case $x in`.
const CLAUSES = new Set(["for", "select", "case"]);
// Wrappers that change who the program runs as, or where it sees `/`.
const ELEVATING = new Set(["sudo", "doas", "chroot"]);
// Wrappers that run the rest of their words as a command, with their options that take a value.
const WRAPPERS: Record<string, string> = {
  sudo: "ugCDhprtUT",
  doas: "uC",
  env: "uCS",
  nice: "n",
  nohup: "",
  command: "",
  exec: "a",
  timeout: "sk",
  stdbuf: "ioe",
  xargs: "IiLlnPsdEa",
  unbuffer: "",
  chroot: "",
  busybox: "",
};
const MAX_DEPTH = 8;

/** Every command in a script, nested ones included, in the order they appear. */
export function shellCommands(script: string, env: { cwd: string; home: string }, depth = 0): ShellCommand[] {
  const out: ShellCommand[] = [];
  let cwd = env.cwd;
  for (const pipeline of parseShell(script, { home: env.home })) {
    const programs = pipeline.map((cmd) => programStart(cmd.words));
    const names = programs.map(({ at }, k) => programName(pipeline[k]!.words[at]));
    pipeline.forEach((cmd, stage) => {
      const { at, plain } = programs[stage]!;
      const words = cmd.words.slice(at);
      const name = names[stage]!;
      out.push({ written: cmd.words, words, name, plainStart: plain, redirects: cmd.redirects, substitutions: cmd.substitutions, cwd, pipeline: names, stage });
      if (depth >= MAX_DEPTH) return;
      const nested = [...cmd.substitutions.map((s) => s.script), ...innerScripts(name, words)];
      for (const inner of nested) out.push(...shellCommands(inner, { cwd, home: env.home }, depth + 1));
      if ((name === "cd" || name === "pushd") && pipeline.length === 1) cwd = absolutePath(words.find((w, k) => k > 0 && !w.startsWith("-")) ?? "~", cwd, env.home);
    });
  }
  return out;
}

export const programName = (word: string | undefined): string => basename(word ?? "").toLowerCase();

/** Index of the word that names the program, past assignments, keywords and wrappers, and whether it starts plainly. */
function programStart(words: string[]): { at: number; plain: boolean } {
  let i = 0;
  let plain = true;
  while (i < words.length) {
    const word = words[i]!;
    if (CLAUSES.has(word)) return { at: words.length, plain };
    if (KEYWORDS.has(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      plain &&= KEYWORDS.has(word); // `VAR=x` changes the program's environment
      i++;
      continue;
    }
    const name = programName(word);
    const valued = WRAPPERS[name];
    // `command -v rm` looks `rm` up; it does not run it.
    if (valued === undefined || (name === "command" && /^-[A-Za-z]*[vV]/.test(words[i + 1] ?? ""))) return { at: i, plain };
    if (ELEVATING.has(name)) plain = false;
    i++;
    // Skip the wrapper's options (and their values), then a duration for `timeout`.
    while (i < words.length && words[i]!.startsWith("-") && words[i] !== "-") {
      const option = words[i]!;
      i++;
      if (option === "--") break;
      if (!option.startsWith("--") && valued.includes(option.at(-1)!) && option.length === 2) i++;
      if (name === "env" && (option.startsWith("-S") || option.startsWith("--split-string"))) plain = false;
    }
    if (name === "timeout" && i < words.length) i++;
  }
  return { at: i, plain };
}

/**
 * Scripts a command runs from its arguments: `bash -c '…'`, `su -c '…'`, `eval …`, `find -exec …`, git's
 * `-c alias.x='!…'` and the commands its other settings run (`-c core.pager=…`).
 */
function innerScripts(name: string, words: string[]): string[] {
  if (name === "eval") return [words.slice(1).join(" ")];
  if (name === "git") {
    const git = gitInvocation(words);
    return [...(git.shellAlias === undefined ? [] : [[git.shellAlias, ...git.args].join(" ")]), ...gitCode(git)];
  }
  if (name === "find") return findExecs(words).map(quoteWords);
  if (!SHELLS.has(name) && name !== "su") return [];
  const at = words.findIndex((w, k) => k > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
  if (at === -1) return [];
  const next = words[at + 1];
  const script = next !== undefined && !next.startsWith("-") ? next : words.slice(at + 1).find((w) => !/^[-+]/.test(w));
  return script === undefined ? [] : [script];
}

/** The commands of `find`'s `-exec`, `-execdir`, `-ok` and `-okdir`, each up to its `;` or `+`. */
function findExecs(words: string[]): string[][] {
  const commands: string[][] = [];
  for (let i = 1; i < words.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[i]!)) continue;
    const end = words.findIndex((w, k) => k > i && (w === ";" || w === "+"));
    commands.push(words.slice(i + 1, end === -1 ? undefined : end));
    i = end === -1 ? words.length : end;
  }
  return commands.filter((c) => c.length > 0);
}
