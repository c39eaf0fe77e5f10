import { dirname, sep } from "node:path";
import { gitInvocation } from "./git-invocation.ts";
import { scriptSource } from "./script-source.ts";
import { isInside } from "../files/project-paths.ts";
import { absolutePath } from "./resolve-path.ts";
import { programName, SHELLS, type ShellCommand } from "./shell-commands.ts";
import { operands } from "./operands.ts";

// Not files: sinks, terminals, the process's own streams and bash's socket paths (`> /dev/tcp/host/port`
// opens a connection, not a disk). Writing them loses nothing, and neither does writing /dev/shm's memory files.
const STREAMS = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/", "/dev/pts/", "/dev/tcp/", "/dev/udp/"];
const PURE_WILDCARD = /^[*?.]*\*[*?.]*$/;

/** Names what makes a command destructive (`rm -rf /`, `git push --force`…), or undefined when it is not. */
export function destructiveRule(cmd: ShellCommand, env: { root: string; home: string }): string | undefined {
  const { name, words } = cmd;
  const short = (letter: string) => words.some((w, k) => k > 0 && /^-[A-Za-z]+$/.test(w) && w.includes(letter));
  const long = (flag: string) => words.some((w) => w === flag || w.startsWith(flag + "="));
  const args = () => operands(words, "").args;
  const wipes = (path: string, withRoot: boolean) => wipesEverything(expandPwd(path, cmd.cwd, env.home), cmd.cwd, env, withRoot);

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
    if (target !== undefined) return `find ${target}`;
  }
  if (name === "git") return gitRule(words);
  const piped = () => cmd.pipeline.slice(0, cmd.stage).find((stage) => stage === "curl" || stage === "wget");
  if (SHELLS.has(name) || name === "source" || name === "." || name === "eval") {
    const fetcher = piped() ?? cmd.substitutions.map((s) => fetcherIn(s.script)).find(Boolean);
    if (fetcher) return `${fetcher} | ${name}`;
  }
  const source = scriptSource(name, words);
  if (source) {
    // The program comes from the network: piped or redirected into stdin, or a substitution as the script.
    const feeds = source.from === "stdin" ? cmd.redirects.filter((r) => r.op === "<" || r.op === "<<<").map((r) => r.target) : [source.word];
    const fetcher = (source.from === "stdin" ? piped() : undefined) ?? cmd.substitutions.filter((s) => feeds.some((f) => f.includes(s.script))).map((s) => fetcherIn(s.script)).find(Boolean);
    if (fetcher) return `${fetcher} | ${name}`;
  }
  if (name === "shred") {
    const target = args().find((p) => wipes(p, true));
    if (target !== undefined) return `shred ${target}`;
  }
  if (name === "wipefs" && !short("n") && !long("--no-act") && (short("a") || short("o") || long("--all") || long("--offset"))) return "wipefs";
  if (name.startsWith("mkfs") || name === "mke2fs") return name;
  return undefined;
}

const fetcherIn = (script: string) => /\b(curl|wget)\b/.exec(script)?.[1];

/** A write to a disk device (`dd of=/dev/sda`, `> /dev/sda`); /dev/null and friends are fine. */
export function writesDevice(absolute: string): boolean {
  return absolute.startsWith("/dev/") && !isStream(absolute) && !absolute.startsWith("/dev/shm/");
}

/** Whether writing this path writes no file: `> /dev/null`, `2> /dev/stderr`, `> /dev/tty`. */
export const isStream = (absolute: string): boolean => STREAMS.some((stream) => absolute === stream || (stream.endsWith("/") && absolute.startsWith(stream)));

function gitRule(words: string[]): string | undefined {
  const { sub, args } = gitInvocation(words);
  const short = (letter: string) => args.some((w) => /^-[A-Za-z]+$/.test(w) && w.includes(letter));
  // git takes any unambiguous start of a long option (`--har` is `--hard`); `shortest` is where that begins.
  const long = (flag: string, shortest: number) =>
    args.some((w) => {
      const name = w.split("=")[0]!;
      return name.length >= shortest && flag.startsWith(name);
    });
  const forcePush = args.some((w) => w.startsWith("--force")) || long("--force", 5);
  if (sub === "push" && (short("f") || forcePush || args.some((w) => w.startsWith("+") && w.length > 1))) return "git push --force";
  if (sub === "push" && long("--mirror", 4)) return "git push --mirror";
  if (sub === "reset" && long("--hard", 3)) return "git reset --hard";
  if (sub === "clean" && (short("f") || long("--force", 3))) return "git clean -f";
  return undefined;
}

// Expression words that neither narrow what `find` matches nor stop it from deleting (`-type f` is every file).
const FIND_NEUTRAL = new Set(["-depth", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-mindepth", "-maxdepth", "-type"]);
const FIND_VALUED = new Set(["-mindepth", "-maxdepth", "-type"]);

/**
 * What `find … -delete` (or `-exec rm|shred …`) would destroy completely: a starting point that wipes
 * everything and an expression with no test narrowing it (`find / -delete`, not `find . -name '*.o' -delete`).
 */
function findWipes(words: string[], wipes: (path: string) => boolean): string | undefined {
  const exprAt = words.findIndex((w, k) => k > 0 && (w.startsWith("-") || w === "(" || w === "!"));
  const starts = words.slice(1, exprAt === -1 ? undefined : exprAt);
  const expr = exprAt === -1 ? [] : words.slice(exprAt);
  const execAt = expr.findIndex((w) => w === "-exec" || w === "-execdir");
  const executed = execAt === -1 ? "" : programName(expr[execAt + 1]);
  const action = expr.includes("-delete") || executed === "rm" ? "-delete" : executed === "shred" ? "-exec shred" : undefined;
  const tests = (execAt === -1 ? expr : expr.slice(0, execAt)).filter((w, k, all) => w !== "-delete" && !FIND_NEUTRAL.has(w) && !FIND_VALUED.has(all[k - 1] ?? ""));
  if (!action || tests.length > 0) return undefined;
  const target = (starts.length ? starts : ["."]).find(wipes);
  return target === undefined ? undefined : `${target} ${action}`;
}

/**
 * Whether deleting (or recursively re-permissioning) `path` takes out the system, the home folder or
 * the project: `/`, a top-level folder, home, the root, any of their ancestors, or `*` inside them.
 * An unset variable before a slash (`$DIR/`) counts, since it would expand to `/`.
 */
// `$PWD`, `${PWD}`, `$(pwd)`, `` `pwd` `` and `$(cd dir; pwd)` at the start of a path: where the shell is (or goes).
const PWD_FORMS = /^(?:\$\{?PWD\}?|\$\(\s*pwd(?:\s+-[LP])?\s*\)|`\s*pwd\s*`|\$\(\s*cd\s+([^;&|)]+?)\s*(?:;|&&)\s*pwd\s*\))/;

/** A path operand that names the current folder by a substitution, with that folder written out. */
function expandPwd(path: string, cwd: string, home: string): string {
  const m = PWD_FORMS.exec(path);
  if (!m) return path;
  const base = m[1] ? absolutePath(m[1].replace(/^["']|["']$/g, ""), cwd, home) : cwd;
  return base + path.slice(m[0].length);
}

function wipesEverything(path: string, cwd: string, env: { root: string; home: string }, withRoot: boolean): boolean {
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/\**$/.test(path)) return true;
  const abs = absolutePath(path, cwd, env.home);
  const last = abs.split(sep).at(-1) ?? "";
  const dir = PURE_WILDCARD.test(last) ? dirname(abs) : abs;
  if (dir.split(sep).filter(Boolean).length <= 1) return true;
  const vital = withRoot ? [env.home, env.root] : [env.home];
  return vital.some((v) => isInside(v, dir));
}
