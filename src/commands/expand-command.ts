import { quoteWords } from "../guard/quote-words.ts";
import { splitArgs } from "./split-args.ts";

/** A saved command's prompt, expanded: text to send and, between, commands whose output goes there. */
export type ExpandedPart = { kind: "text"; text: string } | { kind: "run"; command: string };

export type Expansion = { ok: true; parts: ExpandedPart[] } | { ok: false; problem: string };

const PLACEHOLDER = /\$(ARGUMENTS\b|[1-9]\d*)/g;
const RUN = /!`([^`\n]+)`/g;

/**
 * Fills a command's body with what followed its name. `$ARGUMENTS` is all of it, as typed; `$1…$N`
 * its words, split as a shell would (`"the login bug"` is one), the highest one used taking the
 * rest; a body with no placeholder gets the arguments appended. Inside `` !`cmd` `` every value is
 * quoted, so an argument is one word to the shell whatever it holds: single-quoted where it stands bare
 * (`$ARGUMENTS` there is each word quoted on its own), escaped for the quotes the body put around it
 * (`"$1"`, `'$1'`), where a single-quoted value would be opened up again. Words are split only where used: `don't` is fine for `$ARGUMENTS`.
 */
export function expandCommand(body: string, argText: string): Expansion {
  const args = argText.trim();
  const found = [...body.matchAll(PLACEHOLDER)];
  const runs = [...body.matchAll(RUN)];
  const usesWords = found.some((m) => m[1] !== "ARGUMENTS") || runs.some((m) => /\$ARGUMENTS\b/.test(m[1]!));
  const split = usesWords ? splitArgs(args) : { ok: true as const, words: [] };
  if (!split.ok) return split;
  const { words } = split;
  const last = Math.max(0, ...found.map((m) => (m[1] === "ARGUMENTS" ? 0 : Number(m[1]))));
  const word = (n: number) => (n === last ? words.slice(n - 1).join(" ") : (words[n - 1] ?? ""));
  const fill = (text: string) => text.replace(PLACEHOLDER, (_, name: string) => (name === "ARGUMENTS" ? args : word(Number(name))));
  // In a command `$ARGUMENTS` is the words (as bare, where each is quoted on its own), not the quotes typed around them.
  const value = (name: string) => (name === "ARGUMENTS" ? words.join(" ") : word(Number(name)));
  // In a command, each value is quoted for where it stands: bare, or inside the body's own '…' or "…".
  const fillRun = (text: string) =>
    text.replace(PLACEHOLDER, (_, name: string, at: number) => {
      const inside = quoteAt(text, at);
      if (inside === "'") return value(name).replaceAll("'", `'\\''`);
      if (inside === '"') return value(name).replace(/[\\$`"]/g, "\\$&");
      return name === "ARGUMENTS" ? quoteWords(words) : quoteWords([value(name)]);
    });
  const parts: ExpandedPart[] = [];
  let at = 0;
  for (const m of runs) {
    parts.push({ kind: "text", text: fill(body.slice(at, m.index)) }, { kind: "run", command: fillRun(m[1]!) });
    at = m.index + m[0].length;
  }
  const tail = fill(body.slice(at));
  parts.push({ kind: "text", text: found.length > 0 || args === "" ? tail : `${tail}\n\n${args}` });
  return { ok: true, parts: parts.filter((p) => p.kind === "run" || p.text !== "") };
}

/**
 * The quote a shell is inside at `end` of `script` (`'`, `"`, or none), backslashes and all; a `$(…)`
 * opens a fresh level, even inside double quotes (`"$(basename $1)"` holds $1 bare).
 */
function quoteAt(script: string, end: number): "'" | '"' | undefined {
  const levels: ("'" | '"' | undefined)[] = [undefined];
  for (let i = 0; i < end; i++) {
    const ch = script[i];
    const inside = levels.at(-1);
    if (inside === "'") {
      if (ch === "'") levels[levels.length - 1] = undefined;
    } else if (ch === "\\") i++;
    else if (ch === "$" && script[i + 1] === "(") {
      levels.push(undefined);
      i++;
    } else if (ch === ")" && inside === undefined && levels.length > 1) levels.pop();
    else if (ch === inside) levels[levels.length - 1] = undefined;
    else if (inside === undefined && (ch === "'" || ch === '"')) levels[levels.length - 1] = ch;
  }
  return levels.at(-1);
}
