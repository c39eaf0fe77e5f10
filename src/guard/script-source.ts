/** Where an interpreter takes its program from: stdin (`python3`, `node -`), or a word (a file or `-c` code). */
export type ScriptSource = { from: "stdin" } | { from: "word"; word: string };

type Interpreter = {
  /** Letters of a short-option cluster that carry the program (`-c`, `-ne`); stdin is then data. */
  code: string;
  /** Letters whose value is the rest of the cluster (`-Wignore`, `-Mstrict`), so later letters are not options. */
  attached: string;
  /** Options taking the next word as their value (`-W ignore`, `--require x`). */
  valued: string[];
  /** Long options carrying the program (`--eval code`, `--eval=code`). */
  longCode: string[];
};

const PYTHON: Interpreter = { code: "cm", attached: "WX", valued: ["-W", "-X", "--check-hash-based-pycs"], longCode: [] };
const NODE: Interpreter = {
  code: "ep",
  attached: "",
  valued: ["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"],
  longCode: ["--eval", "--print"],
};
const PERL: Interpreter = { code: "eE", attached: "0CDFIiMmlVx", valued: ["-I"], longCode: [] };
const RUBY: Interpreter = { code: "e", attached: "0CEFIKTWrx", valued: ["-r", "-I", "-C", "-E"], longCode: [] };

function interpreter(name: string): Interpreter | undefined {
  if (/^python[0-9.]*$/.test(name)) return PYTHON;
  if (name === "node" || name === "nodejs") return NODE;
  if (/^perl[0-9.]*$/.test(name)) return PERL;
  if (/^ruby[0-9.]*$/.test(name)) return RUBY;
  return undefined;
}

/**
 * Where `python`, `node`, `perl` or `ruby` reads its program from, or undefined for other programs:
 * stdin when no script and no inline code is given (`curl … | python3`), else the word holding it.
 */
export function scriptSource(name: string, words: string[]): ScriptSource | undefined {
  const spec = interpreter(name);
  if (!spec) return undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === "-") return { from: "stdin" };
    if (word === "--") return words[i + 1] === undefined || words[i + 1] === "-" ? { from: "stdin" } : { from: "word", word: words[i + 1]! };
    if (!word.startsWith("-")) return { from: "word", word };
    const longCode = spec.longCode.find((flag) => word === flag || word.startsWith(flag + "="));
    if (longCode) return { from: "word", word: word === longCode ? (words[i + 1] ?? "") : word.slice(longCode.length + 1) };
    const code = word.startsWith("--") ? undefined : clusterCode(word, spec);
    if (code !== undefined) return { from: "word", word: code || (words[i + 1] ?? "") };
    if (spec.valued.includes(word)) i++;
  }
  return { from: "stdin" };
}

/** The code attached to a cluster's code letter (`-eprint 1` → `print 1`; "" when it is the next word), if it has one. */
function clusterCode(word: string, spec: Interpreter): string | undefined {
  for (let k = 1; k < word.length; k++) {
    if (spec.code.includes(word[k]!)) return word.slice(k + 1);
    if (spec.attached.includes(word[k]!)) return undefined;
  }
  return undefined;
}
