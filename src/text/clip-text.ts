import { formatCount } from "./format-count.ts";

/** The first `max` characters, then how many were cut: `abc… [1,234 more chars]`. */
export const clipText = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max)}… [${formatCount(text.length - max)} more chars]` : text;
