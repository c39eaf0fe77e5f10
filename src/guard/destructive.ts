import { dirname, sep } from "node:path";
import { absolutePath, isInside } from "./resolve-path.ts";
import { SHELLS, type ShellCommand } from "./shell-commands.ts";
import { operands } from "./shell-writes.ts";

const SAFE_DEVICES = ["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/"];
const PURE_WILDCARD = /^[*?.]*\*[*?.]*$/;

/** Names what makes a command destructive (`rm -rf /`, `git push --force`…), or undefined when it is not. */
export function destructiveRule(cmd: ShellCommand, env: { root: string; home: string }): string | undefined {
  const { name, words } = cmd;
  const short = (letter: string) => words.some((w, k) => k > 0 && /^-[A-Za-z]+$/.test(w) && w.includes(letter));
  const long = (flag: string) => words.some((w) => w === flag || w.startsWith(flag + "="));
  const args = () => operands(words, "").args;
  const wipes = (path: string, withRoot: boolean) => wipesEverything(path, cmd.cwd, env, withRoot);

  if (name === "rm" && (short("r") || short("R") || long("--recursive"))) {
    const target = args().find((p) => long("--no-preserve-root") || wipes(p, true));
    if (target !== undefined) return `rm -rf ${target}`;
  }
  if ((name === "chmod" || name === "chown" || name === "chgrp") && (short("R") || long("--recursive"))) {
    const target = args().slice(name === "chmod" ? 1 : 0).find((p) => wipes(p, false));
    if (target !== undefined) return `${name} -R ${name === "chmod" ? (args()[0] ?? "") + " " : ""}${target}`;
  }
  if (name === "find") {
    const target = findWipes(words, (p) => wipes(p, true));
    if (target !== undefined) return `find ${target} -delete`;
  }
  if (name === "git") return gitRule(words);
  if (SHELLS.has(name) || name === "source" || name === "." || name === "eval") {
    const piped = cmd.pipeline.slice(0, cmd.stage).find((stage) => stage === "curl" || stage === "wget");
    const fetched = cmd.substitutions.map((s) => /\b(curl|wget)\b/.exec(s.script)?.[1]).find(Boolean);
    const fetcher = piped ?? fetched;
    if (fetcher) return `${fetcher} | ${name}`;
  }
  if (name.startsWith("mkfs") || name === "mke2fs") return name;
  return undefined;
}

/** A write to a disk device (`dd of=/dev/sda`, `> /dev/sda`); /dev/null and friends are fine. */
export function writesDevice(absolute: string): boolean {
  return absolute.startsWith("/dev/") && !SAFE_DEVICES.some((safe) => absolute === safe || (safe.endsWith("/") && absolute.startsWith(safe)));
}

function gitRule(words: string[]): string | undefined {
  let i = 1;
  // Global options come before the subcommand; -C and -c take a value.
  while (i < words.length && words[i]!.startsWith("-")) i += words[i] === "-C" || words[i] === "-c" ? 2 : 1;
  const sub = words[i];
  const rest = words.slice(i + 1);
  const short = (letter: string) => rest.some((w) => /^-[A-Za-z]+$/.test(w) && w.includes(letter));
  if (sub === "push" && (short("f") || rest.some((w) => w.startsWith("--force") || (w.startsWith("+") && w.length > 1)))) return "git push --force";
  if (sub === "push" && rest.includes("--mirror")) return "git push --mirror";
  if (sub === "reset" && rest.includes("--hard")) return "git reset --hard";
  if (sub === "clean" && (short("f") || rest.includes("--force"))) return "git clean -f";
  return undefined;
}

// Expression words that neither narrow what `find` matches nor stop it from deleting.
const FIND_NEUTRAL = new Set(["-depth", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-mindepth", "-maxdepth"]);
const FIND_VALUED = new Set(["-mindepth", "-maxdepth"]);

/**
 * The starting point `find … -delete` (or `-exec rm …`) would empty completely: one that wipes everything
 * and an expression with no test narrowing it (`find / -delete`, not `find . -name '*.o' -delete`).
 */
function findWipes(words: string[], wipes: (path: string) => boolean): string | undefined {
  const exprAt = words.findIndex((w, k) => k > 0 && (w.startsWith("-") || w === "(" || w === "!"));
  const starts = words.slice(1, exprAt === -1 ? undefined : exprAt);
  const expr = exprAt === -1 ? [] : words.slice(exprAt);
  const execAt = expr.findIndex((w) => w === "-exec" || w === "-execdir");
  const deletes = expr.includes("-delete") || (execAt !== -1 && expr[execAt + 1] === "rm");
  const tests = (execAt === -1 ? expr : expr.slice(0, execAt)).filter((w, k, all) => w !== "-delete" && !FIND_NEUTRAL.has(w) && !FIND_VALUED.has(all[k - 1] ?? ""));
  if (!deletes || tests.length > 0) return undefined;
  return (starts.length ? starts : ["."]).find(wipes);
}

/**
 * Whether deleting (or recursively re-permissioning) `path` takes out the system, the home folder or
 * the project: `/`, a top-level folder, home, the root, any of their ancestors, or `*` inside them.
 * An unset variable before a slash (`$DIR/`) counts, since it would expand to `/`.
 */
function wipesEverything(path: string, cwd: string, env: { root: string; home: string }, withRoot: boolean): boolean {
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/\**$/.test(path)) return true;
  const abs = absolutePath(path, cwd, env.home);
  const last = abs.split(sep).at(-1) ?? "";
  const dir = PURE_WILDCARD.test(last) ? dirname(abs) : abs;
  if (dir.split(sep).filter(Boolean).length <= 1) return true;
  const vital = withRoot ? [env.home, env.root] : [env.home];
  return vital.some((v) => isInside(v, dir));
}
