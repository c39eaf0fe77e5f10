/**
 * A set of UTF-16 code units as sorted, disjoint, inclusive ranges. Plugin patterns are matched as JS
 * RegExp without the `u` flag matches them, one code unit at a time, so the two agree on every input.
 */
export type CharSet = readonly (readonly [number, number])[];

const MAX_UNIT = 0xffff;

/** Sorts and merges ranges into a CharSet. */
export function charSet(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

export const single = (unit: number): CharSet => [[unit, unit]];

export const union = (...sets: CharSet[]): CharSet => charSet(sets.flat());

/** Every code unit not in `set`. */
export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of set) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_UNIT) out.push([next, MAX_UNIT]);
  return out;
}

export const DIGIT = charSet([[0x30, 0x39]]);
export const WORD = charSet([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
/** JS `\s`: WhiteSpace and LineTerminator of the ECMAScript spec. */
export const SPACE = charSet([[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]]);
/** JS `.` without the `s` flag: anything but a line terminator. */
export const DOT = complement(charSet([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]));

export const isWordUnit = (unit: number): boolean =>
  (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x30 && unit <= 0x39) || unit === 0x5f;
