import { basename, join } from "node:path";
import type { ShellCommand } from "./shell-commands.ts";
import { awkScriptWrites, sedScriptWrites } from "./script-writes.ts";

/** A path a command writes, as written (relative to the command's cwd), and how (`>`, `tee`, `cp`…). */
export type WriteTarget = { path: string; via: string };

const OUTPUT_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
// Programs that write their operands, with their short options that take a value.
const WRITES_OPERANDS: Record<string, string> = { tee: "", sponge: "", truncate: "sr", touch: "drt", shred: "ns" };
const COPIERS: Record<string, string> = { cp: "St", mv: "St", install: "mogSt", ln: "St", rsync: "eftT", scp: "cFiJloPS" };
const IN_PLACE: Record<string, string> = { sed: "efl", perl: "eEIlmMx" };
const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);

/** Every file a command would write; `isDirectory(path)` tells whether a copy lands inside an existing folder. */
export function writeTargets(cmd: ShellCommand, isDirectory: (path: string) => boolean): WriteTarget[] {
  const targets: WriteTarget[] = cmd.redirects
    .filter((r) => OUTPUT_REDIRECTS.has(r.op) && !(r.op === ">&" && /^(\d+|-)$/.test(r.target)))
    .map((r) => ({ path: r.target, via: `${r.fd ?? ""}${r.op}` }));
  const name = cmd.name;
  const via = name;
  if (name in WRITES_OPERANDS) targets.push(...operands(cmd.words, WRITES_OPERANDS[name]!).args.map((path) => ({ path, via })));
  if (name in COPIERS) {
    targets.push(...copyTargets(cmd.words, COPIERS[name]!, name, isDirectory).map((path) => ({ path, via })));
    // `mv` takes its sources away, and a link to a secret (`ln .env x`, then `> x`) is a way to write it.
    if (name === "mv" || name === "ln") targets.push(...sourcesOf(cmd.words, COPIERS[name]!).map((path) => ({ path, via })));
  }
  if (name in IN_PLACE) {
    const { args, options } = operands(cmd.words, IN_PLACE[name]!);
    const inPlace = options.some((o) => o.flag === "--in-place" || o.flag.startsWith("--in-place=") || (!o.flag.startsWith("--") && /^-[^ef]*i/.test(o.flag)));
    const scriptGiven = options.some((o) => /^-[^-]*[ef]/.test(o.flag) || o.flag.startsWith("--expression"));
    if (inPlace) targets.push(...args.slice(scriptGiven ? 0 : 1).map((path) => ({ path, via: `${name} -i` })));
  }
  if (name === "sed") targets.push(...sedScriptWrites(cmd.words).map((path) => ({ path, via: "sed w" })));
  if (AWKS.has(name)) targets.push(...awkScriptWrites(cmd.words).map((path) => ({ path, via: `${name} >` })));
  if (name === "dd") {
    for (const w of cmd.words) if (w.startsWith("of=")) targets.push({ path: w.slice(3), via: "dd of=" });
  }
  if (name === "curl" || name === "wget") {
    const { options } = operands(cmd.words, name === "curl" ? "oKdHuXeAbcErTw" : "OoaePiU");
    const flag = name === "curl" ? "o" : "O";
    const long = name === "curl" ? "--output" : "--output-document";
    for (const o of options) {
      if (o.flag === long && o.value !== undefined) targets.push({ path: o.value, via: `${name} ${long}` });
      else if (o.flag.startsWith(long + "=")) targets.push({ path: o.flag.slice(long.length + 1), via: `${name} ${long}` });
      else if (!o.flag.startsWith("--") && o.flag.endsWith(flag) && o.value !== undefined) targets.push({ path: o.value, via: `${name} -${flag}` });
      else if (!o.flag.startsWith("--") && o.flag.includes(flag)) targets.push({ path: o.flag.slice(o.flag.indexOf(flag) + 1), via: `${name} -${flag}` });
    }
  }
  return targets.filter((t) => t.path !== "" && t.path !== "-");
}

type Option = { flag: string; value?: string };

/**
 * Splits arguments into options and operands. A short option in `valued` takes the next word as its
 * value when it ends its cluster (`-t dir`, `-vt dir`); long options take values only as `--x=v`,
 * except the few listed by the caller through the flag itself (curl's `--output file`).
 */
export function operands(words: string[], valued: string): { args: string[]; options: Option[] } {
  const args: string[] = [];
  const options: Option[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--") {
      args.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith("--")) {
      const takesNext = ["--output", "--output-document", "--target-directory", "--suffix", "--expression", "--file", "--size", "--reference"].includes(w);
      options.push(takesNext ? { flag: w, value: words[++i] } : { flag: w });
    } else if (w.startsWith("-") && w.length > 1) {
      const last = w.at(-1)!;
      options.push(valued.includes(last) && !(w.length > 2 && valued.includes(w[1]!)) ? { flag: w, value: words[++i] } : { flag: w });
    } else args.push(w);
  }
  return { args, options };
}

function sourcesOf(words: string[], valued: string): string[] {
  const { args, options } = operands(words, valued);
  const hasDirOption = options.some((o) => o.flag.startsWith("--target-directory") || /^-[^-]*t/.test(o.flag));
  return hasDirOption || args.length === 1 ? args : args.slice(0, -1);
}

function copyTargets(words: string[], valued: string, name: string, isDirectory: (path: string) => boolean): string[] {
  const { args, options } = operands(words, valued);
  const dirOption = options.find((o) => o.flag === "--target-directory" || o.flag.startsWith("--target-directory=") || /^-[^-]*t$/.test(o.flag) || /^-t./.test(o.flag));
  const landing = (dir: string, sources: string[]) => [dir, ...sources.map((s) => join(dir, basename(s)))];
  if (dirOption) {
    const dir = dirOption.value ?? dirOption.flag.replace(/^--target-directory=|^-t/, "");
    return landing(dir, args);
  }
  if (options.some((o) => o.flag === "-d" && name === "install")) return args;
  if (args.length === 1) return name === "ln" ? [basename(args[0]!)] : [];
  const dest = args.at(-1);
  if (dest === undefined) return [];
  const sources = args.slice(0, -1);
  const intoDir = dest.endsWith("/") || sources.length > 1 || isDirectory(dest);
  return intoDir ? landing(dest, sources) : [dest];
}
