import { charSet, complement, DIGIT, DOT, single, SPACE, WORD, type CharSet } from "./char-set.ts";
import { PATTERN_LIMITS } from "./pattern-limits.ts";

export type AssertKind = "start" | "end" | "word" | "notWord";

/** A plugin pattern as the linear-time matcher sees it; groups only group (nothing is captured). */
export type PatternNode =
  | { type: "set"; set: CharSet }
  | { type: "assert"; kind: AssertKind }
  | { type: "seq"; items: PatternNode[] }
  | { type: "alt"; options: PatternNode[] }
  | { type: "repeat"; node: PatternNode; min: number; max: number };

export type PatternParse = { ok: true; node: PatternNode } | { ok: false; problem: string };

/** Thrown inside the parser, returned as a problem: the first thing wrong, in words. */
class Refusal {
  constructor(readonly problem: string) {}
}
const unsupported = (what: string) => new Refusal(`uses ${what}, which the linear-time matcher does not support`);
const invalid = (what: string) => new Refusal(`does not compile (${what})`);

const BRACES = /^\{(\d+)(?:(,)(\d*))?\}/;
const CLASS_ESCAPES: Record<string, CharSet> = { d: DIGIT, D: complement(DIGIT), w: WORD, W: complement(WORD), s: SPACE, S: complement(SPACE) };
const CONTROL_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * Parses the subset of JS regular expressions (no flags) that a Thompson NFA can match without
 * backtracking: literals, `.`, classes, `\d \w \s` and their negations, `\b \B ^ $`, groups, `|`,
 * and `* + ? {n} {n,} {n,m}` (lazy or not: only whether it matches counts). Backreferences, lookaround,
 * possessive and atomic forms are refused by name, as is anything JS reads in a way people rarely mean
 * (`\1` with no group, `a{` as text, `\u{41}` without the u flag).
 */
export function parsePattern(source: string): PatternParse {
  const parser = new Parser(source);
  try {
    const node = parser.alternation();
    if (parser.pos < source.length) throw invalid(`unmatched ) at position ${parser.pos + 1}`);
    return { ok: true, node };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.problem };
    throw err;
  }
}

class Parser {
  pos = 0;
  constructor(private readonly src: string) {}

  alternation(): PatternNode {
    const options = [this.sequence()];
    while (this.src[this.pos] === "|") {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { type: "alt", options };
  }

  private sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== "|" && this.src[this.pos] !== ")") items.push(this.quantified());
    return items.length === 1 ? items[0]! : { type: "seq", items };
  }

  private quantified(): PatternNode {
    const node = this.atom();
    const bounds = this.quantifier();
    if (!bounds) return node;
    if (node.type === "assert") throw invalid("nothing to repeat: an assertion cannot be quantified");
    if (this.src[this.pos] === "?") this.pos++; // lazy: same matches, only a different preference
    if (this.src[this.pos] === "+") throw unsupported("a possessive quantifier (…+)");
    if (this.peekQuantifier()) throw invalid("nothing to repeat: two quantifiers in a row");
    return { type: "repeat", node, ...bounds };
  }

  private peekQuantifier(): boolean {
    const char = this.src[this.pos];
    return char === "*" || char === "+" || char === "?" || (char === "{" && BRACES.test(this.src.slice(this.pos)));
  }

  private quantifier(): { min: number; max: number } | undefined {
    const char = this.src[this.pos];
    if (char === "*" || char === "+" || char === "?") {
      this.pos++;
      return { min: char === "+" ? 1 : 0, max: char === "?" ? 1 : Infinity };
    }
    const braces = char === "{" ? BRACES.exec(this.src.slice(this.pos)) : null;
    if (!braces) return undefined;
    this.pos += braces[0].length;
    const min = Number(braces[1]);
    const max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
    if (min > max) throw invalid(`numbers out of order in ${braces[0]}`);
    const counted = max === Infinity ? min : max;
    if (counted > PATTERN_LIMITS.patternRepeat) throw new Refusal(`repeats ${braces[0]}, over the ${PATTERN_LIMITS.patternRepeat} repetitions allowed`);
    return { min, max };
  }

  private atom(): PatternNode {
    const char = this.src[this.pos]!;
    this.pos++;
    switch (char) {
      case "(":
        return this.group();
      case "[":
        return { type: "set", set: this.charClass() };
      case ".":
        return { type: "set", set: DOT };
      case "^":
        return { type: "assert", kind: "start" };
      case "$":
        return { type: "assert", kind: "end" };
      case "\\":
        return this.atomEscape();
      case "*":
      case "+":
      case "?":
        throw invalid(`nothing to repeat before ${char}`);
      case "{":
        this.pos--;
        if (this.peekQuantifier()) throw invalid("nothing to repeat before {");
        throw unsupported("a bare { (write \\{ for the character)");
      default:
        return { type: "set", set: single(char.charCodeAt(0)) };
    }
  }

  private group(): PatternNode {
    if (this.src[this.pos] === "?") {
      const rest = this.src.slice(this.pos + 1);
      const named = /^<[A-Za-z_$][\w$]*>/.exec(rest);
      if (rest.startsWith(":")) this.pos += 2;
      else if (named) this.pos += 1 + named[0].length;
      else throw this.groupRefusal(rest);
    }
    const inner = this.alternation();
    if (this.src[this.pos] !== ")") throw invalid("missing )");
    this.pos++;
    // `(?:^)*` is valid JS although `^*` is not: keep a grouped assertion quantifiable.
    return inner.type === "assert" ? { type: "seq", items: [inner] } : inner;
  }

  private groupRefusal(rest: string): Refusal {
    if (rest.startsWith("=")) return unsupported("a lookahead (?=…)");
    if (rest.startsWith("!")) return unsupported("a negative lookahead (?!…)");
    if (rest.startsWith("<=")) return unsupported("a lookbehind (?<=…)");
    if (rest.startsWith("<!")) return unsupported("a negative lookbehind (?<!…)");
    if (rest.startsWith(">")) return unsupported("an atomic group (?>…)");
    if (/^-?[a-z]/.test(rest)) return unsupported("inline flags (?i…)");
    return invalid("invalid group (?");
  }

  private atomEscape(): PatternNode {
    const char = this.src[this.pos];
    if (char === "b" || char === "B") {
      this.pos++;
      return { type: "assert", kind: char === "b" ? "word" : "notWord" };
    }
    if (char !== undefined && /[1-9]/.test(char)) throw unsupported(`a backreference (\\${/^\d+/.exec(this.src.slice(this.pos))![0]})`);
    if (char === "k") throw unsupported("a named backreference (\\k<…>)");
    const escaped = this.classOrUnitEscape();
    return { type: "set", set: typeof escaped === "number" ? single(escaped) : escaped };
  }

  /** After a backslash: a class escape's set, or the code unit a character escape stands for. */
  private classOrUnitEscape(): CharSet | number {
    const char = this.src[this.pos];
    if (char === undefined) throw invalid("\\ at end of pattern");
    this.pos++;
    const set = CLASS_ESCAPES[char];
    if (set) return set;
    if (char in CONTROL_ESCAPES) return CONTROL_ESCAPES[char]!;
    if (char === "0") {
      if (/\d/.test(this.src[this.pos] ?? "")) throw unsupported("an octal escape (\\0…)");
      return 0;
    }
    if (char === "x") return this.hex(2, "\\x needs two hex digits");
    if (char === "u") {
      if (this.src[this.pos] === "{") throw unsupported("\\u{…} (a u-flag feature)");
      return this.hex(4, "\\u needs four hex digits");
    }
    if (char === "c" && /[A-Za-z]/.test(this.src[this.pos] ?? "")) return this.src.charCodeAt(this.pos++) % 32;
    if (char === "p" || char === "P") throw unsupported(`a Unicode property escape (\\${char}{…}, a u-flag feature)`);
    if (/[A-Za-z0-9]/.test(char)) throw unsupported(`an unknown escape (\\${char})`);
    return char.charCodeAt(0); // \. \\ \/ \( … stand for themselves
  }

  private hex(digits: number, problem: string): number {
    const text = this.src.slice(this.pos, this.pos + digits);
    if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(text)) throw unsupported(problem);
    this.pos += digits;
    return parseInt(text, 16);
  }

  /** `[...]` after its `[`; as in JS, `[]` matches nothing and `[^]` anything. */
  private charClass(): CharSet {
    const negated = this.src[this.pos] === "^";
    if (negated) this.pos++;
    const ranges: (readonly [number, number])[] = [];
    while (this.src[this.pos] !== "]") {
      if (this.pos >= this.src.length) throw invalid("missing ]");
      const from = this.classAtom();
      if (this.src[this.pos] === "-" && this.pos + 1 < this.src.length && this.src[this.pos + 1] !== "]") {
        this.pos++;
        const to = this.classAtom();
        if (typeof from !== "number" || typeof to !== "number") throw unsupported("a range with a class escape at one end, such as [\\w-z]");
        if (from > to) throw invalid("range out of order in [...]");
        ranges.push([from, to]);
      } else if (typeof from === "number") ranges.push([from, from]);
      else ranges.push(...from);
    }
    this.pos++;
    const set = charSet(ranges);
    return negated ? complement(set) : set;
  }

  private classAtom(): CharSet | number {
    const char = this.src[this.pos]!;
    this.pos++;
    if (char !== "\\") return char.charCodeAt(0);
    const next = this.src[this.pos];
    if (next === "b") {
      this.pos++;
      return 8; // backspace, inside a class
    }
    if (next === "-") {
      this.pos++;
      return 0x2d;
    }
    if (next !== undefined && /[1-9]/.test(next)) throw unsupported(`an octal escape (\\${next})`);
    if (next === "B" || next === "k") throw unsupported(`an unknown escape (\\${next})`);
    return this.classOrUnitEscape();
  }
}
