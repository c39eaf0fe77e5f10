import type { CharSet } from "./char-set.ts";
import type { AssertKind, PatternNode } from "./parse-pattern.ts";

/** What one state of the NFA does; `x`/`y` are its operands. */
export const Op = {
  /** Consume one code unit in set `x`, go to the next state. */
  Char: 0,
  /** Go to both `x` and `y`. */
  Split: 1,
  /** Go to `x`. */
  Jump: 2,
  /** Go to the next state if assertion `x` holds here. */
  Assert: 3,
  Match: 4,
} as const;
type Op = (typeof Op)[keyof typeof Op];

export const ASSERT_CODE: Record<AssertKind, number> = { start: 0, end: 1, word: 2, notWord: 3 };

/** A Thompson NFA, one array slot per state; state 0 starts. */
export type Program = { op: Uint8Array; x: Int32Array; y: Int32Array; sets: CharSet[] };

/** How many states `node` compiles to, computed before compiling so a huge expansion is never built. */
export function programSize(node: PatternNode): number {
  switch (node.type) {
    case "set":
    case "assert":
      return 1;
    case "seq":
      return node.items.reduce((sum, item) => sum + programSize(item), 0);
    case "alt":
      return node.options.reduce((sum, option) => sum + programSize(option), 0) + 2 * (node.options.length - 1);
    case "repeat": {
      const body = programSize(node.node);
      if (node.max === Infinity) return node.min === 0 ? body + 2 : node.min * body + 1;
      return node.min * body + (node.max - node.min) * (body + 1);
    }
  }
}

/** Compiles a parsed pattern (whose `programSize` the caller has checked) to an NFA ending in Match. */
export function compilePattern(node: PatternNode): Program {
  const ops: number[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  const sets: CharSet[] = [];
  const emit = (op: Op, x = 0, y = 0) => {
    ops.push(op);
    xs.push(x);
    ys.push(y);
    return ops.length - 1;
  };
  const compile = (part: PatternNode): void => {
    switch (part.type) {
      case "set":
        emit(Op.Char, sets.push(part.set) - 1);
        return;
      case "assert":
        emit(Op.Assert, ASSERT_CODE[part.kind]);
        return;
      case "seq":
        for (const item of part.items) compile(item);
        return;
      case "alt": {
        const exits: number[] = [];
        part.options.forEach((option, index) => {
          if (index === part.options.length - 1) return compile(option);
          const split = emit(Op.Split, ops.length + 1);
          compile(option);
          exits.push(emit(Op.Jump));
          ys[split] = ops.length;
        });
        for (const exit of exits) xs[exit] = ops.length;
        return;
      }
      case "repeat":
        return compileRepeat(part.node, part.min, part.max);
    }
  };
  const compileRepeat = (body: PatternNode, min: number, max: number) => {
    if (max === Infinity && min === 0) {
      const loop = emit(Op.Split, ops.length + 1);
      compile(body);
      emit(Op.Jump, loop);
      ys[loop] = ops.length;
      return;
    }
    const required = max === Infinity ? min - 1 : min;
    for (let i = 0; i < required; i++) compile(body);
    if (max === Infinity) {
      const start = ops.length;
      compile(body);
      emit(Op.Split, start, ops.length + 1);
      return;
    }
    // Each optional copy may skip straight to the end: (b(b(b)?)?)? rather than b?b?b?.
    const skips: number[] = [];
    for (let i = min; i < max; i++) {
      skips.push(emit(Op.Split, ops.length + 1));
      compile(body);
    }
    for (const skip of skips) ys[skip] = ops.length;
  };
  compile(node);
  emit(Op.Match);
  return { op: Uint8Array.from(ops), x: Int32Array.from(xs), y: Int32Array.from(ys), sets };
}
