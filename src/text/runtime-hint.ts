// Bun's fetch ends some errors ("The socket connection was closed unexpectedly") with advice for the programmer who called it.
const FETCH_HINT = /\s*For more information, pass `verbose: true` in the second argument to fetch\(\)\.?/g;

/** An error's message as a person reads it: without the runtime's advice to its programmer. */
export const withoutRuntimeHint = (message: string): string => message.replace(FETCH_HINT, "");
