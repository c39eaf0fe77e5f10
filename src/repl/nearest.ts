import { editDistance } from "../text/edit-distance.ts";

/** The candidate closest to `word` by edit distance, if it is close enough to be a likely typo. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 2)) ? best : undefined;
}

/** Up to `n` candidates nearest `word`: those containing it first, then by edit distance. */
export function nearestNames(word: string, candidates: readonly string[], n = 3): string[] {
  const rank = (c: string) => (c.includes(word) || word.includes(c) ? -1 : editDistance(word, c));
  return candidates
    .map((c) => [c, rank(c)] as const)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([c]) => c);
}
