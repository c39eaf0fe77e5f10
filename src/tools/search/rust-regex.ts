/**
 * Rewrites a JavaScript regular expression (no flags, as grep's schema promises) for ripgrep's Rust
 * engine so that it matches at least every line the JavaScript one matches. grep tests each line rg
 * reports with the JavaScript regex again, so a wider match costs only time; a narrower one would lose a
 * line. Where the dialects differ:
 *
 * - `\d`, `\w`, `\b` and `\s` are ASCII (`\s` JavaScript's own list) in JavaScript, Unicode in Rust: spelled out.
 * - JavaScript counts UTF-16 units and sees invalid UTF-8 as U+FFFD; Rust counts characters over raw
 *   bytes. An atom that can match a non-ASCII unit (`.`, `[^…]`, `\S`…) also takes any run of non-ASCII
 *   bytes, so `a..b` still matches "a😀b" and `.` still matches a stray Latin-1 byte.
 * - Lookarounds are dropped (an assertion removed only widens) and a backreference becomes "anything".
 * - Escapes JavaScript reads literally (`\/`, `\-`, a `{` that is no quantifier) are written as literals.
 *
 * Returns undefined for what it cannot widen safely (inline modifiers such as `(?i:…)`): the caller then
 * searches with JavaScript alone.
 */
export function rustRegex(source: string): string | undefined {
  let out = "";
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\\") {
      const [text, next] = escapeOutside(source, i + 1);
      out += text;
      i = next;
    } else if (c === "[") {
      const cls = parseClass(source, i);
      out += cls.text;
      i = cls.end;
    } else if (c === "(") {
      if (source.startsWith("(?:", i)) {
        out += "(?:";
        i += 3;
      } else if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) {
        out += "(?:)";
        i = groupEnd(source, i);
      } else if (source.startsWith("(?<", i)) {
        out += "(";
        i = source.indexOf(">", i) + 1;
      } else if (source[i + 1] === "?") return undefined;
      else {
        out += "(";
        i++;
      }
    } else if (c === "{") {
      const quantifier = /^\{\d+(,\d*)?\}/.exec(source.slice(i))?.[0];
      out += quantifier ?? "\\{";
      i += quantifier?.length ?? 1;
    } else if (c === ".") {
      out += wide(".");
      i++;
    } else if (")|*+?^$".includes(c)) {
      out += c;
      i++;
    } else {
      const code = source.codePointAt(i)!;
      out += literal(code);
      i += code > 0xffff ? 2 : 1;
    }
  }
  return out;
}

// JavaScript's \s: every UTF-16 unit /\s/ matches but the newline no line holds (a unit test holds it to the engine's).
const JS_SPACE = "\\t\\x0B\\x0C\\r\\x20\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
const SETS: Record<string, string> = { d: "0-9", w: "0-9A-Za-z_", s: JS_SPACE };
const ANYTHING = "(?s-u:.)*";
const NON_ASCII_BYTES = "(?-u:[\\x80-\\xFF])+";

/** An atom that may match one non-ASCII UTF-16 unit: also any run of non-ASCII bytes (half an emoji, invalid UTF-8). */
const wide = (atom: string) => `(?:${atom}|${NON_ASCII_BYTES})`;

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;

function literal(code: number): string {
  if (isSurrogate(code)) return NON_ASCII_BYTES;
  // No line holds a newline, and ripgrep refuses one in a pattern: NUL, which no searched text holds either.
  if (code === 10) return "\\x{0}";
  if (code === 0xfffd) return wide("\\x{FFFD}");
  return /[A-Za-z0-9_]/.test(String.fromCodePoint(code)) || code >= 0x80 ? String.fromCodePoint(code) : hex(code);
}

const hex = (code: number) => `\\x{${code.toString(16).toUpperCase()}}`;

/** One escape outside a class, from just after its backslash: the Rust text and where the source goes on. */
function escapeOutside(source: string, at: number): [string, number] {
  const c = source[at];
  if (c === undefined) return ["\\\\", at];
  if (c in SETS) return [`[${SETS[c]}]`, at + 1];
  if (c.toLowerCase() in SETS) return [wide(`[^${SETS[c.toLowerCase()]}]`), at + 1];
  if (c === "b" || c === "B") return [`(?-u:\\${c})`, at + 1];
  // A backreference, or a legacy octal escape: either way "anything" is wider.
  if (/[1-9]/.test(c) || (c === "0" && /[0-9]/.test(source[at + 1] ?? ""))) return [ANYTHING, at + 1 + /^[0-9]*/.exec(source.slice(at + 1))![0].length];
  if (c === "k" && source[at + 1] === "<" && source.includes(">", at)) return [ANYTHING, source.indexOf(">", at) + 1];
  const [code, next] = charEscape(source, at, false);
  if (isSurrogate(code) && code < 0xdc00 && source.startsWith("\\u", next)) {
    const [low, after] = charEscape(source, next + 1, false);
    if (low >= 0xdc00 && low <= 0xdfff) return [literal(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)), after];
  }
  return [literal(code), next];
}

/** The character an escape stands for (one UTF-16 unit), from just after its backslash; `\c` without a letter is a backslash. */
function charEscape(source: string, at: number, inClass: boolean): [number, number] {
  const c = source[at]!;
  const simple: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, "0": 0, ...(inClass ? { b: 8 } : {}) };
  const hexRun = (length: number) => (new RegExp(`^[0-9A-Fa-f]{${length}}`).test(source.slice(at + 1)) ? parseInt(source.slice(at + 1, at + 1 + length), 16) : undefined);
  if (c === "x" && hexRun(2) !== undefined) return [hexRun(2)!, at + 3];
  if (c === "u" && hexRun(4) !== undefined) return [hexRun(4)!, at + 5];
  if (c === "c") {
    const letter = source[at + 1] ?? "";
    if (/[A-Za-z]/.test(letter) || (inClass && /[0-9_]/.test(letter))) return [letter.charCodeAt(0) % 32, at + 2];
    return [0x5c, at]; // the backslash alone; the "c" is read next as itself
  }
  if (inClass && /[0-7]/.test(c)) {
    const digits = /^[0-7]{1,3}/.exec(source.slice(at))![0];
    const octal = parseInt(digits, 8) > 0o377 ? digits.slice(0, 2) : digits;
    return [parseInt(octal, 8), at + octal.length];
  }
  if (c in simple) return [simple[c]!, at + 1];
  return [source.codePointAt(at)!, at + (source.codePointAt(at)! > 0xffff ? 2 : 1)];
}

/** A `[...]` class from its `[`: Rust text (widened when it may match a non-ASCII unit) and the index after `]`. */
function parseClass(source: string, start: number): { text: string; end: number } {
  let i = start + 1;
  const negated = source[i] === "^";
  if (negated) i++;
  const parts: string[] = [];
  let mayBeWide = negated;
  type Item = { code: number } | { set: string };
  const item = (): Item => {
    if (source[i] !== "\\") {
      const code = source.charCodeAt(i);
      i++;
      return { code };
    }
    const c = source[i + 1]!;
    if (c.toLowerCase() in SETS) {
      i += 2;
      return { set: c };
    }
    const [code, next] = charEscape(source, i + 1, true);
    i = next === i + 1 && code === 0x5c ? i + 1 : next;
    return { code };
  };
  const addRange = (lo: number, hi: number) => {
    if (lo <= 0xfffd && hi >= 0xfffd) mayBeWide = true;
    if (isSurrogate(lo) || isSurrogate(hi) || (lo < 0xd800 && hi > 0xdfff)) mayBeWide = true;
    if (lo <= 10 && hi >= 10) {
      // ripgrep refuses a newline in a class too, and no line holds one.
      if (lo < 10) addRange(lo, 9);
      if (hi > 10) addRange(11, hi);
      return;
    }
    const from = isSurrogate(lo) ? 0xe000 : lo;
    const to = isSurrogate(hi) ? 0xd7ff : hi;
    if (from <= to) parts.push(from === to ? hex(from) : `${hex(from)}-${hex(to)}`);
  };
  while (i < source.length && source[i] !== "]") {
    const first = item();
    if ("set" in first) {
      const lower = first.set.toLowerCase();
      if (first.set === lower) parts.push(SETS[lower]!);
      else {
        parts.push(`[^${SETS[lower]}]`);
        mayBeWide = true;
      }
      continue;
    }
    if (source[i] === "-" && source[i + 1] !== "]" && i + 1 < source.length) {
      const save = i;
      i++;
      const second = item();
      if ("code" in second) {
        addRange(first.code, second.code);
        continue;
      }
      // `\w-x`-style: the dash is literal (Annex B); read it again as a character.
      i = save;
    }
    addRange(first.code, first.code);
  }
  const end = i + 1;
  if (parts.length === 0) return { text: negated ? wide("(?s:.)") : mayBeWide ? NON_ASCII_BYTES : "\\x{0}", end };
  const text = `[${negated ? "^" : ""}${parts.join("")}]`;
  return { text: mayBeWide ? wide(text) : text, end };
}

/** The index just after the group opening at `start`, skipping nested groups, classes and escapes. */
function groupEnd(source: string, start: number): number {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") {
      i++;
      if (source[i] === "^") i++;
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  return source.length;
}
