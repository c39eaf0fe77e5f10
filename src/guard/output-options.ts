import { isAbsolute, join } from "node:path";
import { gitInvocation } from "./git-invocation.ts";
import { operands, type Option } from "./operands.ts";
import type { ShellCommand } from "./shell-commands.ts";
import type { WriteTarget } from "./write-target.ts";

type OutputOption = {
  /** Short options taking a value, so the letters of a cluster are read as the program reads them. */
  valued: string;
  /** The letter of the short option naming the output file, if it has one. */
  short?: string;
  /** Whether short options cluster (`curl -so f`, getopt) or stand alone (`gcc -ofile`, Go's `-o=file`). */
  clusters: boolean;
  /** Long options naming the output file, as `--x file` or `--x=file`. */
  long: readonly string[];
  /** Only under this subcommand (`go build -o`, `bun build --outfile`). */
  sub?: string;
};

const CC: OutputOption = { valued: "oIDLlxuU", short: "o", clusters: false, long: [] };
// Programs whose options name a file they write (`curl -o f`, `sort -o f`, `gcc -o f`).
const OUTPUTS: Record<string, OutputOption> = {
  curl: { valued: "oKdHuXeAbcErTw", short: "o", clusters: true, long: ["--output"] },
  wget: { valued: "OoaePiU", short: "O", clusters: true, long: ["--output-document"] },
  sort: { valued: "okStT", short: "o", clusters: true, long: ["--output"] },
  ...Object.fromEntries(["cc", "gcc", "g++", "c++", "clang", "clang++", "ld"].map((name) => [name, CC])),
  go: { valued: "o", short: "o", clusters: false, long: [], sub: "build" },
  bun: { valued: "", clusters: false, long: ["--outfile", "--outdir"], sub: "build" },
  tsc: { valued: "p", clusters: false, long: ["--outFile", "--outDir"] },
};

/** Files a command's own options say it writes: `curl -o f`, `git diff --output=f`, `sort -o f`, `gcc -o f`. */
export function outputTargets(cmd: ShellCommand): WriteTarget[] {
  if (cmd.name === "git") return gitOutputs(cmd.words);
  const spec = OUTPUTS[cmd.name];
  if (!spec || (spec.sub !== undefined && cmd.words[1] !== spec.sub)) return [];
  const { options } = operands(spec.sub ? cmd.words.slice(1) : cmd.words, spec.valued, spec.long);
  return options.flatMap((o) => {
    const path = longValue(o, spec.long) ?? (spec.short ? shortValue(o, spec.short, spec.clusters) : undefined);
    return path === undefined ? [] : [{ path, via: `${cmd.name} ${o.flag.startsWith("--") ? o.flag.split("=")[0] : `-${spec.short}`}` }];
  });
}

const longValue = (o: Option, names: readonly string[]) => {
  const name = names.find((n) => o.flag === n || o.flag.startsWith(n + "="));
  return name === undefined ? undefined : o.flag === name ? o.value : o.flag.slice(name.length + 1);
};

/** `-o f`, and the file attached: `-ofile`, `-o=file` (Go), or the rest of a cluster after the letter (`-sofile`). */
function shortValue(o: Option, letter: string, clusters: boolean): string | undefined {
  if (o.flag.startsWith("--")) return undefined;
  if (!clusters) return o.flag === `-${letter}` ? o.value : o.flag.startsWith(`-${letter}`) ? o.flag.slice(2).replace(/^=/, "") : undefined;
  if (o.flag.endsWith(letter) && o.value !== undefined) return o.value;
  return o.flag.includes(letter) ? o.flag.slice(o.flag.indexOf(letter) + 1) : undefined;
}

// git subcommands whose `-o` names what they write (a file for archive, a folder for format-patch).
const GIT_SHORT_OUTPUT = new Set(["archive", "format-patch"]);

/** `git diff --output=f` (and every diff-producing subcommand), `archive -o f`, `format-patch -o dir`, `bundle create f`, from the folder `-C` names. */
function gitOutputs(words: string[]): WriteTarget[] {
  const { sub, args, dir } = gitInvocation(words);
  if (sub === undefined) return [];
  const paths: string[] = [];
  const { options, args: operandsOf } = operands([sub, ...args], GIT_SHORT_OUTPUT.has(sub) ? "o" : "", ["--output-directory"]);
  for (const o of options) {
    const path = longValue(o, ["--output", "--output-directory"]) ?? (GIT_SHORT_OUTPUT.has(sub) ? shortValue(o, "o", false) : undefined);
    if (path !== undefined) paths.push(path);
  }
  if (sub === "bundle" && operandsOf[0] === "create" && operandsOf[1] !== undefined) paths.push(operandsOf[1]);
  return paths.map((path) => ({ path: dir === "." || isAbsolute(path) ? path : join(dir, path), via: `git ${sub}` }));
}
