/** Two Esc presses this close together are one gesture (rewind), as in Claude Code. */
export const DOUBLE_ESCAPE_MS = 500;

/**
 * Tells a double Esc from two single ones. Pure apart from the clock it is given: `press(now)` is true
 * on the second press within the window (and starts over, so a third press is a new first one);
 * any other key in between calls `reset`, so Esc, a letter, Esc is not a double.
 */
export function createDoubleEscape(windowMs = DOUBLE_ESCAPE_MS) {
  let last: number | undefined;
  return {
    press(now: number): boolean {
      const double = last !== undefined && now - last <= windowMs;
      last = double ? undefined : now;
      return double;
    },
    reset(): void {
      last = undefined;
    },
  };
}
