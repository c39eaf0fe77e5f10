import { expect, test } from "bun:test";
import { compilePattern } from "../../../src/pattern/compile-pattern.ts";
import { lazyDfa } from "../../../src/pattern/lazy-dfa.ts";
import { linearPattern, type LinearPattern } from "../../../src/pattern/linear-pattern.ts";
import { parsePattern } from "../../../src/pattern/parse-pattern.ts";
import { randomPattern, randomText, seededRandom } from "../../support/random-pattern.ts";

const KIB64 = 64 * 1024;

const compiled = (source: string): LinearPattern => {
  const result = linearPattern(source);
  if (!result.ok) throw new Error(`${source} ${result.problem}`);
  return result.pattern;
};

/** The linear-time promise, without a clock: the matcher's own count of the work it did. */
const expectLinearSteps = (pattern: LinearPattern, input: string, steps: number) =>
  expect(steps).toBeLessThanOrEqual((2 * pattern.states + 1) * (input.length + 1));

// Patterns that backtracking engines (JS RegExp among them) take seconds to years over on the input beside
// them: measured with RegExp, `\s*` eight times then `x` over 60 spaces took 49 s, `(?:a|a?)+$` over 24 a's
// 1.6 s. Each input leaves the required literal (if any) in, so the automaton itself has to read all of it.
const ACCEPTED: [string, string, boolean][] = [
  ["(a+)+$", "a".repeat(KIB64) + "!", false],
  ["(a*)*$", "a".repeat(KIB64) + "!", true],
  ["(a|a)*$", "a".repeat(KIB64) + "!", true],
  ["(a|aa)+$", "a".repeat(KIB64) + "!", false],
  ["(?:a|a?)+$", "a".repeat(KIB64) + "!", true],
  ["(\\w+\\s?)+$", "word ".repeat(KIB64 / 5 + 1) + "!", false],
  ["\\s*\\s*\\s*\\s*\\s*\\s*\\s*\\s*[xy]", " ".repeat(KIB64), false],
  ["(x+x+)+y", "x".repeat(KIB64), false],
  ["^(([a-z])+.)+[A-Z]([a-z])+$", "a".repeat(KIB64) + "!", false],
  ["(a|b|ab)*[cd]", "ab".repeat(KIB64 / 2), false],
  ["([a-zA-Z]+)*$", "a".repeat(KIB64) + "1", true],
  ["(.*)*[xy]", "a".repeat(KIB64), false],
  ["(a?){25}a{25}", `${"a".repeat(24)}b`.repeat(KIB64 / 25 + 1), false],
  [".*.*.*[=:].*", "a".repeat(KIB64), false],
  ["(\\d+)*[.,]", "1".repeat(KIB64) + "!", false],
  ["^(\\s*,?)*$", " ,".repeat(KIB64 / 2) + "x", false],
  ["\\bgit\\b.*\\bpush\\b.*\\s--force\\b", `--force git push ${"origin ".repeat(KIB64 / 7 + 1)}`, false],
  ["(\\S+\\s*)+=", `= ${"word ".repeat(KIB64 / 5 + 1)}`, false],
];

const REFUSED: [string, string][] = [
  ["(a+)\\1+b", "a backreference (\\1)"],
  ["(?<x>a+)\\k<x>b", "a named backreference (\\k<…>)"],
  ["(?=(a+))a*b\\1", "a lookahead (?=…)"],
  ["(?!a)*b", "a negative lookahead (?!…)"],
  ["(?<=a+)+b", "a lookbehind (?<=…)"],
  ["(?<!a)+b", "a negative lookbehind (?<!…)"],
  ["a*+b", "a possessive quantifier (…+)"],
  ["(?>a+)+b", "an atomic group (?>…)"],
  ["(a{1,100}){1,100}b", "matcher states once its repetitions are counted out"],
  ["(?i)(a+)+$", "inline flags (?i…)"],
];

test(`${ACCEPTED.length + REFUSED.length} slow patterns: each refused naming the construct, or matched in linear time on 64 KiB`, () => {
  expect(ACCEPTED.length + REFUSED.length).toBeGreaterThanOrEqual(20);
  for (const [source, construct] of REFUSED) {
    const result = linearPattern(source);
    expect([source, result.ok ? "accepted" : result.problem]).toEqual([source, expect.stringContaining(construct)]);
  }
  for (const [source, input, matches] of ACCEPTED) {
    expect(input.length).toBeGreaterThanOrEqual(KIB64);
    const pattern = compiled(source);
    const { matched, steps } = pattern.run(input);
    expect([source, matched]).toEqual([source, matches]);
    expect(steps).toBeGreaterThanOrEqual(input.length); // the automaton read it all: no literal filter answered
    // Linear by the automaton's own count of steps (what it does, not how long a busy machine takes: `bun run bench registry` times it).
    expectLinearSteps(pattern, input, steps);
  }
});

test("property: random patterns agree with RegExp on short inputs, and take linear time on long ones", () => {
  const random = seededRandom(20_261_130);
  let compared = 0;
  for (let round = 0; round < 400; round++) {
    const source = randomPattern(random);
    const result = linearPattern(source);
    if (!result.ok) throw new Error(`the generator made ${JSON.stringify(source)}, refused: ${result.problem}`);
    const expected = new RegExp(source);
    // The same automaton with room for two states: its cache is emptied, and given up, all the time.
    const parsed = parsePattern(source);
    if (!parsed.ok) throw new Error(parsed.problem);
    const cramped = lazyDfa(compilePattern(parsed.node), 1);
    for (let i = 0; i < 25; i++) {
      const input = randomText(random, Math.floor(random() * 14));
      expect([source, input, result.pattern.test(input), cramped(input).matched]).toEqual([source, input, expected.test(input), expected.test(input)]);
      compared++;
    }
    if (round % 20 !== 0) continue;
    const long = randomText(random, 16 * 1024);
    const { steps } = result.pattern.run(long);
    expectLinearSteps(result.pattern, long, steps);
  }
  expect(compared).toBe(10_000);
});

test("a cache too small for the automaton is emptied and given up, run after run, without changing an answer", () => {
  const random = seededRandom(11);
  for (const source of ["^ab", "^(?:ab|ba)+$", "\\bab\\b", "a[ab]b$", "(?:^| )b a"]) {
    const parsed = parsePattern(source);
    if (!parsed.ok) throw new Error(parsed.problem);
    const cramped = lazyDfa(compilePattern(parsed.node), 1);
    const expected = new RegExp(source);
    const wrong = Array.from({ length: 2000 }, () => randomText(random, Math.floor(random() * 6), "ab ")).filter((input) => cramped(input).matched !== expected.test(input));
    expect([source, wrong]).toEqual([source, []]);
  }
});

test("\\d \\w \\s . and their negations match the same code units as in RegExp, all 65,536", () => {
  for (const source of ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", ".", "[^\\s\\d]", "[\\s\\S]", "\\bx", "x\\B"]) {
    const pattern = compiled(source);
    const expected = new RegExp(source);
    const differ: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const text = source.includes("x") ? (source.startsWith("x") ? `x${String.fromCharCode(unit)}` : `${String.fromCharCode(unit)}x`) : String.fromCharCode(unit);
      if (pattern.test(text) !== expected.test(text)) differ.push(unit);
    }
    expect([source, differ]).toEqual([source, []]);
  }
});

test("what JS reads differently without the u flag, or rarely means, is refused by name", () => {
  for (const [source, problem] of [
    ["a{", "uses a bare { (write \\{ for the character)"],
    ["\\u{41}", "uses \\u{…} (a u-flag feature)"],
    ["\\p{L}", "uses a Unicode property escape (\\p{…}, a u-flag feature)"],
    ["[\\w-z]", "uses a range with a class escape at one end"],
    ["\\q", "uses an unknown escape (\\q)"],
    ["\\01", "uses an octal escape (\\0…)"],
    ["(unclosed", "does not compile (missing ))"],
    ["a**", "does not compile (nothing to repeat: two quantifiers in a row)"],
    ["[z-a]", "does not compile (range out of order in [...])"],
    ["\\b+", "does not compile (nothing to repeat: an assertion cannot be quantified)"],
    ["a{101}", "repeats {101}, over the 100 repetitions allowed"],
  ]) {
    const result = linearPattern(source!);
    expect([source, result.ok ? "accepted" : result.problem]).toEqual([source, expect.stringContaining(problem!)]);
  }
});

test("a budget stops a run that would cost more, and says it could not tell", () => {
  const thrashing = compiled("[ab]*a[ab]{99}xyz");
  // The literal first, so the pattern's required "xyz" is there and the automaton has to read the rest.
  const input = `xyz${randomText(seededRandom(7), KIB64, "ab")}`;
  const free = thrashing.run(input);
  expect(free.matched).toBe(false);
  expect(free.steps).toBeGreaterThan(20 * input.length); // its sets never repeat: dozens of states per character
  const capped = thrashing.run(input, 1_000_000);
  expect(capped.matched).toBeUndefined();
  expect(capped.steps).toBeLessThan(1_000_000 + 2 * (2 * thrashing.states + 1));
});
