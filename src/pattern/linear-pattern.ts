import { compilePattern, programSize } from "./compile-pattern.ts";
import { lazyDfa, type Run } from "./lazy-dfa.ts";
import { PATTERN_LIMITS } from "./pattern-limits.ts";
import { parsePattern } from "./parse-pattern.ts";
import { requiredLiteral } from "./required-literal.ts";

export type LinearPattern = {
  /** Whether the pattern matches anywhere in `input`, as `new RegExp(source).test(input)` would say. */
  test(input: string): boolean;
  /**
   * The same, with the work it took: never more than (2 × states + 1) × (input length + 1) steps.
   * `matched` is undefined when the work would pass `budget`: the caller decides what not knowing means.
   */
  run: Run;
  /** The NFA's size; the work per input character is bounded by it. */
  states: number;
};

export type LinearCompile = { ok: true; pattern: LinearPattern } | { ok: false; problem: string };

/**
 * Compiles a plugin pattern for a matcher whose time is linear in the input whatever the pattern: a
 * Thompson NFA run as a lazily built DFA (no backtracking), so `(a+)+$` or eight `\s*` in a row cost
 * about what `abc` does per character. Refuses what such a matcher cannot do, naming it.
 */
export function linearPattern(source: string): LinearCompile {
  const parsed = parsePattern(source);
  if (!parsed.ok) return parsed;
  const states = programSize(parsed.node) + 1;
  if (states > PATTERN_LIMITS.patternStates) {
    return { ok: false, problem: `expands to ${states} matcher states once its repetitions are counted out, over the ${PATTERN_LIMITS.patternStates} allowed` };
  }
  const dfa = lazyDfa(compilePattern(parsed.node));
  const literal = requiredLiteral(parsed.node);
  const run: Run = (input, budget) => (input.includes(literal) ? dfa(input, budget) : { matched: false, steps: 1 });
  return { ok: true, pattern: { test: (input) => run(input).matched === true, run, states } };
}
