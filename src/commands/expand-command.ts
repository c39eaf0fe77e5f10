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
 * single-quoted, so an argument is one word to the shell whatever it holds (`$ARGUMENTS` there is
 * each word quoted on its own). Words are split only where used: `don't` is fine for `$ARGUMENTS`.
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
  const fill = (text: string, quoted: boolean) =>
    text.replace(PLACEHOLDER, (_, name: string) => {
      if (name === "ARGUMENTS") return quoted ? quoteWords(words) : args;
      return quoted ? quoteWords([word(Number(name))]) : word(Number(name));
    });
  const parts: ExpandedPart[] = [];
  let at = 0;
  for (const m of runs) {
    parts.push({ kind: "text", text: fill(body.slice(at, m.index), false) }, { kind: "run", command: fill(m[1]!, true) });
    at = m.index + m[0].length;
  }
  const tail = fill(body.slice(at), false);
  parts.push({ kind: "text", text: found.length > 0 || args === "" ? tail : `${tail}\n\n${args}` });
  return { ok: true, parts: parts.filter((p) => p.kind === "run" || p.text !== "") };
}
