import { editDistance } from "./edit-distance.ts";

/**
 * The candidate closest to `word` by edit distance, if it is close enough to be a likely typo: by
 * default up to half the word's length (at least 2); `maxDistance` when a near miss costs more than a hint.
 */
export function nearest(word: string, candidates: readonly string[], maxDistance = Math.max(2, Math.floor(word.length / 2))): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= maxDistance ? best : undefined;
}

/** `; did you mean "model"?` for the nearest candidate, or "" when none is close: the tail of an error line. */
export function didYouMean(word: string, candidates: readonly string[], show: (name: string) => string = (name) => JSON.stringify(name)): string {
  const near = nearest(word, candidates);
  return near === undefined ? "" : `; did you mean ${show(near)}?`;
}

/** Up to `n` candidates nearest `word`: those containing it (or contained in it) first, then by edit distance. */
export function nearestNames(word: string, candidates: readonly string[], n = 3): string[] {
  const rank = (c: string) => (c.includes(word) || word.includes(c) ? -1 : editDistance(word, c));
  return candidates
    .map((c) => [c, rank(c)] as const)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([c]) => c);
}
