import { operands } from "./operands.ts";

/**
 * Files a sed script writes with its `w`/`W` command or the `w` flag of `s///` (`sed 's/a/b/w .env'`).
 * The file name runs to the end of the line. Every `w` that could start one counts — after a
 * non-letter, or after `s` flags — so a `w` inside a regex may add a harmless extra candidate.
 */
export function sedScriptWrites(words: string[]): string[] {
  const { args, options } = operands(words, "efl");
  const given = options.filter((o) => o.value !== undefined && (o.flag === "--expression" || /^-[^-]*e$/.test(o.flag))).map((o) => o.value!);
  const inline = options.filter((o) => o.flag.startsWith("--expression=")).map((o) => o.flag.slice("--expression=".length));
  const fromFile = options.some((o) => o.flag === "--file" || o.flag.startsWith("--file=") || /^-[^-]*f$/.test(o.flag));
  const scripts = given.length || inline.length || fromFile ? [...given, ...inline] : args.slice(0, 1);
  const files: string[] = [];
  for (const line of scripts.flatMap((s) => s.split("\n"))) {
    for (const m of line.matchAll(/(?:^|[^A-Za-z\\])[gpiImMe0-9]*[wW]\s*(?=\S)/g)) files.push(line.slice(m.index + m[0].length).trim());
  }
  // Later candidates first: they are the shorter, true names when an earlier `w` sat inside a regex.
  return files.reverse();
}

/** Files an awk program prints into (`print > ".env"`, `printf … >> "x"`); names held in variables stay unseen. */
export function awkScriptWrites(words: string[]): string[] {
  const { args, options } = operands(words, "Fvf");
  if (options.some((o) => /^-[^-]*f$/.test(o.flag) || o.flag.startsWith("--file"))) return [];
  const program = args[0] ?? "";
  return [...program.matchAll(/>>?\s*"([^"]+)"/g)].map((m) => m[1]!);
}
