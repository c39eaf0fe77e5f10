/** A small seeded generator (mulberry32), so a failing property case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// Characters that meet the patterns' literals and classes, plus a line terminator, a non-ASCII letter and U+2028.
const ALPHABET = "ab -/.\n_1é\u2028x";
const LITERALS = ["a", "b", "-", "/", " ", "\\.", "\\/", "\\-", "_", "1", "é"];
const CLASS_ITEMS = ["a", "b", "a-c", "0-9", "\\d", "\\w", "\\s", "\\-", " ", "\\.", "é", "/"];
const ESCAPES = ["\\d", "\\w", "\\s", "\\D", "\\W", "\\S"];
const ASSERTIONS = ["\\b", "\\B", "^", "$"];
const QUANTIFIERS = ["*", "+", "?", "{2}", "{0,2}", "{1,}", "{1,3}", "{0}", "{3}"];

/** Text of `length` characters from `alphabet`. */
export const randomText = (random: () => number, length: number, alphabet = ALPHABET): string =>
  Array.from({ length }, () => pick(random, [...alphabet])).join("");

/**
 * A random pattern from the subset the linear-time matcher accepts: literals, `.`, classes, class escapes,
 * assertions, groups, alternation and every quantifier form, nested a few levels deep.
 */
export function randomPattern(random: () => number, depth = 3): string {
  const options = random() < 0.7 ? 1 : 2 + Math.floor(random() * 2);
  return Array.from({ length: options }, () => sequence(random, depth)).join("|");
}

function sequence(random: () => number, depth: number): string {
  let out = "";
  for (let i = 0, n = Math.floor(random() * 4); i < n; i++) {
    const [text, quantifiable] = atom(random, depth);
    const quantified = quantifiable && random() < 0.4;
    out += text + (quantified ? pick(random, QUANTIFIERS) + (random() < 0.2 ? "?" : "") : "");
  }
  return out;
}

function atom(random: () => number, depth: number): [string, boolean] {
  const r = random();
  if (r < 0.35 || (r >= 0.76 && depth <= 0)) return [pick(random, LITERALS), true];
  if (r < 0.45) return [".", true];
  if (r < 0.58) {
    const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, CLASS_ITEMS)).join("");
    return [`[${random() < 0.3 ? "^" : ""}${items}]`, true];
  }
  if (r < 0.68) return [pick(random, ESCAPES), true];
  if (r < 0.76) return [pick(random, ASSERTIONS), false];
  return [`${pick(random, ["(", "(?:"])}${randomPattern(random, depth - 1)})`, true];
}
