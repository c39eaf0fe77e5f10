/** "1 line", "3 lines": a count with its noun, singular only for exactly one. */
export const plural = (n: number, noun: string, nouns = `${noun}s`): string => `${n} ${n === 1 ? noun : nouns}`;
