import { isWordUnit, WORD, type CharSet } from "./char-set.ts";
import { ASSERT_CODE, Op, type Program } from "./compile-pattern.ts";

/**
 * Whether the pattern matches somewhere in `input`, and the work it took: characters read plus NFA states
 * visited, at most (2 × states + 1) × (length + 1). `matched` is undefined when that work would pass `budget`.
 */
export type Run = (input: string, budget?: number) => { matched: boolean | undefined; steps: number };

// What follows a position, which is all a `$` or `\b` there needs to know besides the character before it.
const OTHER = 0;
const WORDY = 1;
const END = 2;
const UNKNOWN = -1;
const MATCHED = -2;
const THRASH = -3;
/** Transition cells a pattern's cache may hold (4 bytes each) before it is emptied and rebuilt as needed; tests pass fewer. */
const CACHE_CELLS = 1 << 16;
/** A cache refilled before it served this many characters per state it holds is not paying for itself. */
const THRASH_FACTOR = 10;

/**
 * Matches a compiled pattern with a DFA built lazily from its NFA: a DFA state is the set of NFA character
 * states alive at a position, each transition is worked out once by simulating the NFA and then read from
 * a table. A character costs one lookup, or one pass over the NFA when its transition is new, so the time
 * is linear in the input whatever the pattern. The cache is bounded: for a pattern whose sets never repeat
 * (`[ab]*a[ab]{99}`) a run gives it up and goes on as a plain NFA simulation, which is still linear.
 * The search is unanchored, as RegExp.test's is.
 */
export function lazyDfa(program: Program, cacheCells = CACHE_CELLS): Run {
  const { op, x, y } = program;
  const has = setTable(program.sets);
  const classes = characterClasses(program.sets);
  const width = classes.count * 3;
  const maxStates = Math.max(2, Math.floor(cacheCells / width));
  let table = new Int32Array(width * 4).fill(UNKNOWN);
  let kernels: Int32Array[] = [];
  let ids = new Map<string, number>();
  let starts = [UNKNOWN, UNKNOWN, UNKNOWN];
  const mark = new Int32Array(op.length);
  const stack = new Int32Array(op.length);
  let alive = new Int32Array(op.length);
  let spare = new Int32Array(op.length);
  let aliveCount = 0;
  let generation = 0;
  let steps = 0;
  // Characters read by all runs so far, and by then when the cache was last emptied.
  let served = 0;
  let servedAtFlush = 0;

  // Adds the character states reachable from `from` without reading (assertions judged here) to `alive`.
  const close = (from: number, atStart: boolean, prevWord: boolean, next: number): boolean => {
    if (mark[from] === generation) return false;
    mark[from] = generation;
    let top = 0;
    stack[top++] = from;
    while (top > 0) {
      const pc = stack[--top]!;
      steps++;
      const code = op[pc];
      let a = -1;
      let b = -1;
      if (code === Op.Char) alive[aliveCount++] = pc;
      else if (code === Op.Match) return true;
      else if (code === Op.Jump) a = x[pc]!;
      else if (code === Op.Split) (a = x[pc]!), (b = y[pc]!);
      else if (holds(x[pc]!, atStart, prevWord, next)) a = pc + 1;
      if (a >= 0 && mark[a] !== generation) (mark[a] = generation), (stack[top++] = a);
      if (b >= 0 && mark[b] !== generation) (mark[b] = generation), (stack[top++] = b);
    }
    return false;
  };
  // One NFA step: the states of `kernel` that read a character of class `cls`, plus a new attempt, into `alive`.
  const advance = (kernel: Int32Array, length: number, cls: number, next: number): boolean => {
    const unit = classes.representative[cls]!;
    const prevWord = classes.word[cls] === WORDY;
    generation++;
    aliveCount = 0;
    for (let i = 0; i < length; i++) {
      const pc = kernel[i]!;
      steps++;
      if (has(x[pc]!, unit) && close(pc + 1, false, prevWord, next)) return true;
    }
    return close(0, false, prevWord, next);
  };
  /**
   * The DFA state for the set now in `alive`, made if new. A full cache is emptied first; if it filled up
   * again this soon, THRASH tells the run to go on without it (`alive` untouched).
   */
  const intern = (servedNow: number): number => {
    const kernel = alive.slice(0, aliveCount).sort();
    const key = kernel.join(",");
    const known = ids.get(key);
    if (known !== undefined) return known;
    if (kernels.length >= maxStates) {
      const thrashing = servedNow - servedAtFlush < THRASH_FACTOR * maxStates;
      servedAtFlush = servedNow;
      kernels = [];
      ids = new Map();
      starts = [UNKNOWN, UNKNOWN, UNKNOWN];
      table.fill(UNKNOWN);
      if (thrashing) return THRASH;
    }
    const state = kernels.length;
    if ((state + 1) * width > table.length) {
      const grown = new Int32Array(Math.min(table.length * 2, maxStates * width)).fill(UNKNOWN);
      grown.set(table);
      table = grown;
    }
    ids.set(key, state);
    kernels.push(kernel);
    return state;
  };

  return (input, budget = Infinity) => {
    const n = input.length;
    steps = 0;
    const { ascii, word } = classes;
    const classAt = (at: number) => {
      const unit = input.charCodeAt(at);
      return unit < 128 ? ascii[unit]! : classes.of(unit);
    };
    const done = (matched: boolean | undefined, at: number) => {
      served += at;
      return { matched, steps: steps + at };
    };
    let cls = n > 0 ? classAt(0) : 0;
    const first = n > 0 ? word[cls]! : END;
    let state = starts[first]!;
    if (state === UNKNOWN) {
      generation++;
      aliveCount = 0;
      state = close(0, true, false, first) ? MATCHED : intern(served);
      if (state !== THRASH) starts[first] = state; // a THRASH start lives in `alive`, for this run only
    }
    let at = 0;
    // The hot loop: one table lookup per character while the transitions are known.
    let cells = table;
    for (; at < n && state >= 0; at++) {
      let nextCls = 0;
      let next = END;
      if (at + 1 < n) {
        const unit = input.charCodeAt(at + 1);
        nextCls = unit < 128 ? ascii[unit]! : classes.of(unit);
        next = word[nextCls]!;
      }
      const cell = state * width + cls * 3 + next;
      let target = cells[cell]!;
      if (target === UNKNOWN) {
        // Only here can a character cost more than one step, so only here is the budget looked at.
        if (steps + at > budget) return done(undefined, at);
        const cache = kernels;
        target = advance(kernels[state]!, kernels[state]!.length, cls, next) ? MATCHED : intern(served + at);
        cells = table;
        if (kernels === cache) cells[cell] = target; // unless intern emptied the cache, taking `state` with it
      }
      state = target;
      cls = nextCls;
    }
    if (state !== THRASH) return done(state === MATCHED, at);
    // Without the cache: `alive` holds the states after position `at - 1`; plain NFA simulation from there.
    for (; at < n; at++) {
      if (steps + at > budget) return done(undefined, at);
      [alive, spare] = [spare, alive];
      const nextCls = at + 1 < n ? classAt(at + 1) : 0;
      if (advance(spare, aliveCount, cls, at + 1 < n ? word[nextCls]! : END)) return done(true, at);
      cls = nextCls;
    }
    return done(false, n);
  };
}

function holds(assertion: number, atStart: boolean, prevWord: boolean, next: number): boolean {
  if (assertion === ASSERT_CODE.start) return atStart;
  if (assertion === ASSERT_CODE.end) return next === END;
  const boundary = prevWord !== (next === WORDY);
  return assertion === ASSERT_CODE.word ? boundary : !boundary;
}

/**
 * Splits the code units into classes no set (nor `\w`, for `\b`) tells apart, so the DFA's tables have a
 * column per class rather than per character.
 */
function characterClasses(sets: readonly CharSet[]) {
  const cuts = new Set([0]);
  for (const set of [...sets, WORD]) for (const [from, to] of set) cuts.add(from).add(to + 1);
  const representative = Int32Array.from([...cuts].filter((cut) => cut <= 0xffff)).sort();
  const ascii = new Int32Array(128);
  for (let cls = 0, unit = 0; unit < 128; unit++) {
    while (cls + 1 < representative.length && representative[cls + 1]! <= unit) cls++;
    ascii[unit] = cls;
  }
  /** The class of a code unit at or above 128: the last class starting at or before it. */
  const of = (unit: number): number => {
    let low = 0;
    let high = representative.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (representative[mid]! <= unit) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  const word = Int32Array.from(representative, (unit) => (isWordUnit(unit) ? WORDY : OTHER));
  return { count: representative.length, ascii, of, representative, word };
}

/** Membership tests for a list of sets: a 128-entry table each for ASCII, ranges for the rest. */
function setTable(sets: readonly CharSet[]): (set: number, unit: number) => boolean {
  const ascii = new Uint8Array(sets.length * 128);
  const bounds = new Int32Array(sets.length + 1);
  const high: number[] = [];
  sets.forEach((set, index) => {
    for (const [from, to] of set) {
      for (let unit = from; unit <= Math.min(to, 127); unit++) ascii[index * 128 + unit] = 1;
      if (to >= 128) high.push(Math.max(from, 128), to);
    }
    bounds[index + 1] = high.length;
  });
  const ranges = Int32Array.from(high);
  return (set, unit) => {
    if (unit < 128) return ascii[set * 128 + unit] === 1;
    for (let k = bounds[set]!; k < bounds[set + 1]!; k += 2) if (unit >= ranges[k]! && unit <= ranges[k + 1]!) return true;
    return false;
  };
}
