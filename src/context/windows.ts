/** Context windows (input + output tokens) of known models, matched by the longest name prefix. */
const KNOWN_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ["gpt-5-chat", 128_000],
  ["gpt-5", 400_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["o4-mini", 200_000],
  ["o3", 200_000],
  ["o1", 200_000],
  ["codex-mini", 200_000],
];

/** Used for a model neither the table nor the config knows: small enough to be safe for most. */
export const FALLBACK_WINDOW = 128_000;

export const DEFAULT_COMPACT_AT = 120_000;

/** The soft threshold never goes above this share of the window. */
export const THRESHOLD_SHARE_OF_WINDOW = 0.9;

// A learned window never goes below this: an overflow with a tiny estimate says the estimate was wrong.
const MIN_LEARNED_WINDOW = 8_000;

export function knownWindow(model: string): number | undefined {
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN_WINDOWS)
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  return best?.[1];
}

/** The window as currently known: one learned from an overflow wins, then the config, then the table. */
export function windowFor(model: string, opts: { configured?: number; learned?: number } = {}): number {
  const base = opts.configured ?? knownWindow(model) ?? FALLBACK_WINDOW;
  return opts.learned !== undefined ? Math.min(base, opts.learned) : base;
}

/** `compactAt` (config or `--compact-at`), or the default, but never above 90% of the window. */
export function thresholdInForce(opts: { compactAt?: number; window: number }): number {
  return Math.floor(Math.min(opts.compactAt ?? DEFAULT_COMPACT_AT, opts.window * THRESHOLD_SHARE_OF_WINDOW));
}

/**
 * A `context_length_exceeded` for a request estimated at `sentTokens` says the window is smaller
 * than that. Call it once per overflow, with the estimate of the request that overflowed.
 */
export function learnWindow(window: number, sentTokens: number): number {
  return Math.min(window, Math.max(MIN_LEARNED_WINDOW, sentTokens - 1));
}
