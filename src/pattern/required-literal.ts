import type { PatternNode } from "./parse-pattern.ts";

/** Longer literals add little as a filter and make `includes` work harder per position. */
const MAX_LITERAL = 32;

/**
 * The longest text every match of `node` contains (`git` for `\bgit\b.*push`), or "" when there is none.
 * A command without it cannot match, and `String.prototype.includes` finds that out far faster than any
 * automaton: it is how most tool calls pass most plugin rules.
 */
export function requiredLiteral(node: PatternNode): string {
  const found = literals(node);
  return found.reduce((longest, text) => (text.length > longest.length ? text : longest), "").slice(0, MAX_LITERAL);
}

// Every literal `node` must contain; runs of single characters in a sequence join into one.
function literals(node: PatternNode): string[] {
  if (node.type === "set") return node.set.length === 1 && node.set[0]![0] === node.set[0]![1] ? [String.fromCharCode(node.set[0]![0])] : [];
  if (node.type === "repeat") return node.min > 0 ? literals(node.node) : [];
  if (node.type !== "seq") return []; // an assertion reads nothing; an alternation promises no one branch
  const found: string[] = [];
  let run = "";
  for (const item of node.items) {
    if (item.type === "assert") continue; // zero-width: the characters on either side stay adjacent
    const inner = literals(item);
    const single = item.type === "set" ? inner[0] : undefined;
    if (single !== undefined) {
      run += single;
      continue;
    }
    if (run) found.push(run);
    run = "";
    found.push(...inner);
  }
  if (run) found.push(run);
  return found;
}
