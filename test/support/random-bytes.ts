import { seededRandom } from "./random-pattern.ts";

/** `n` random bytes from a seed, so a failing case can be replayed: the binary input a test pipes in. */
export function randomBytes(n: number, seed = 21): Uint8Array {
  const random = seededRandom(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
}
