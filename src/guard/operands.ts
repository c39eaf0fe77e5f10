/** A command-line option as split by `operands`: the flag as written, and the value it took, if any. */
export type Option = { flag: string; value?: string };

// Long options that take the next word as their value (`--output file`); others take one only as `--x=v`.
const LONG_VALUED = ["--output", "--output-document", "--target-directory", "--suffix", "--expression", "--file", "--size", "--reference"];

/**
 * Splits arguments into options and operands. A short option in `valued` takes the next word as its
 * value when it ends its cluster (`-t dir`, `-vt dir`); long options take values only as `--x=v`,
 * except the few listed here and those the caller adds in `longValued` (bun's `--outfile file`).
 */
export function operands(words: string[], valued: string, longValued: readonly string[] = []): { args: string[]; options: Option[] } {
  const args: string[] = [];
  const options: Option[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--") {
      args.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith("--")) {
      const takesNext = LONG_VALUED.includes(w) || longValued.includes(w);
      options.push(takesNext ? { flag: w, value: words[++i] } : { flag: w });
    } else if (w.startsWith("-") && w.length > 1) {
      const last = w.at(-1)!;
      options.push(valued.includes(last) && !(w.length > 2 && valued.includes(w[1]!)) ? { flag: w, value: words[++i] } : { flag: w });
    } else args.push(w);
  }
  return { args, options };
}
