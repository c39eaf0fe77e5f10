/** What followed a command's name, as words: or why it cannot be split (a quote left open). */
export type SplitArgs = { ok: true; words: string[] } | { ok: false; problem: string };

/**
 * Splits arguments as a shell would, and no further: `"the login bug" src/x.ts` is two words.
 * Single quotes keep everything, double quotes let a backslash escape `"` and `\`, and outside
 * quotes a backslash keeps the next character. Nothing expands: `$HOME` and `*` stay as typed.
 */
export function splitArgs(text: string): SplitArgs {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (ch === "\\") {
      word += text[++i] ?? "";
      continue;
    }
    if (ch !== "'" && ch !== '"') {
      word += ch;
      continue;
    }
    const close = closingQuote(text, i);
    if (close < 0) return { ok: false, problem: `the ${ch === "'" ? "single" : "double"} quote at character ${i + 1} of the arguments is not closed (close it, or put a \\ before it)` };
    const inside = text.slice(i + 1, close);
    word += ch === "'" ? inside : inside.replace(/\\(["\\])/g, "$1");
    i = close;
  }
  if (inWord) words.push(word);
  return { ok: true, words };
}

/** Where the quote opened at `open` closes; -1 when it does not. */
function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}
