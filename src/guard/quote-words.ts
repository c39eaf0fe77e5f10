/** Words as a script that parses back to exactly them: each single-quoted, so nothing in them expands again. */
export const quoteWords = (words: readonly string[]): string => words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
