/** What a pattern may cost the linear-time matcher; each is named in the refusal it causes. */
export const PATTERN_LIMITS = {
  /** The most a pattern may repeat one part, `{n}` or `{n,m}`: each repetition is a copy in the matcher. */
  patternRepeat: 100,
  /** The matcher's states once repetitions are expanded; the work per input character is at most this. */
  patternStates: 2000,
} as const;
