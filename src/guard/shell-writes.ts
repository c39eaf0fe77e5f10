import { basename, join } from "node:path";
import type { ShellCommand } from "./shell-commands.ts";
import { operands } from "./operands.ts";
import { outputTargets } from "./output-options.ts";
import type { WriteTarget } from "./write-target.ts";

export type { WriteTarget };
import { awkScriptWrites, sedScriptWrites } from "./script-writes.ts";


const OUTPUT_REDIRECTS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
// Programs that write their operands, with their short options that take a value; tee and sponge pass output on.
const PASS_ON = new Set(["tee", "sponge"]);
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
  const own = (path: string, how = via): WriteTarget => ({ path, via: how, operand: true });
  if (name in WRITES_OPERANDS) targets.push(...operands(cmd.words, WRITES_OPERANDS[name]!).args.map((path) => (PASS_ON.has(name) ? { path, via } : own(path))));
  if (name in COPIERS) {
    targets.push(...copyTargets(cmd.words, COPIERS[name]!, name, isDirectory).map((path) => own(path)));
    // `mv` takes its sources away, and a link to a secret (`ln .env x`, then `> x`) is a way to write it.
    if (name === "mv" || name === "ln") targets.push(...sourcesOf(cmd.words, COPIERS[name]!).map((path) => own(path)));
  }
  if (name in IN_PLACE) {
    const { args, options } = operands(cmd.words, IN_PLACE[name]!);
    const inPlace = options.some((o) => o.flag === "--in-place" || o.flag.startsWith("--in-place=") || (!o.flag.startsWith("--") && /^-[^ef]*i/.test(o.flag)));
    const scriptGiven = options.some((o) => /^-[^-]*[ef]/.test(o.flag) || o.flag.startsWith("--expression"));
    if (inPlace) targets.push(...args.slice(scriptGiven ? 0 : 1).map((path) => own(path, `${name} -i`)));
  }
  if (name === "sed") targets.push(...sedScriptWrites(cmd.words).map((path) => ({ path, via: "sed w" })));
  if (AWKS.has(name)) targets.push(...awkScriptWrites(cmd.words).map((path) => ({ path, via: `${name} >` })));
  if (name === "dd") {
    for (const w of cmd.words) if (w.startsWith("of=")) targets.push(own(w.slice(3), "dd of="));
  }
  targets.push(...outputTargets(cmd));
  return targets.filter((t) => t.path !== "" && t.path !== "-");
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
