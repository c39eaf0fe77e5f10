type Group = { start: number; quantified: boolean };

/**
 * Finds a repeated group that itself contains a quantifier — `(a+)+`, `(.*)*`, `(\w+\s?){2,}` — the shape
 * that backtracks exponentially on a near-miss. Returns that part of the pattern, or undefined. Deliberately
 * conservative: plugin patterns run before every tool call, so a refused safe pattern costs less than a hang.
 */
export function catastrophicPart(pattern: string): string | undefined {
  const stack: Group[] = [{ start: 0, quantified: false }];
  let closedGroup: Group | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      i++;
      closedGroup = undefined;
      continue;
    }
    if (char === "[") {
      i = classEnd(pattern, i);
      closedGroup = undefined;
      continue;
    }
    if (char === "(") {
      stack.push({ start: i, quantified: false });
      i = groupPrefixEnd(pattern, i);
      closedGroup = undefined;
      continue;
    }
    if (char === ")") {
      const group = stack.pop();
      const parent = stack.at(-1);
      if (!group || !parent) return undefined; // unbalanced: the compile check reports it
      parent.quantified ||= group.quantified;
      closedGroup = group;
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (quantifier) {
      const end = i + quantifier.length;
      if (closedGroup?.quantified && quantifier.repeats) return pattern.slice(closedGroup.start, end);
      stack.at(-1)!.quantified = true;
      i = end - 1 + (pattern[end] === "?" ? 1 : 0); // a lazy `?` is part of this quantifier
      closedGroup = undefined;
      continue;
    }
    closedGroup = undefined;
  }
  return undefined;
}

function quantifierAt(pattern: string, i: number): { length: number; repeats: boolean } | undefined {
  const char = pattern[i];
  if (char === "*" || char === "+") return { length: 1, repeats: true };
  if (char === "?") return { length: 1, repeats: false };
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!braces) return undefined;
  const max = braces[2] === undefined ? Number(braces[1]) : braces[3] === "" ? Infinity : Number(braces[3]);
  return { length: braces[0].length, repeats: max > 1 };
}

// Index of the `]` closing the class opened at `start` (escapes and a leading `]` included).
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
  return i;
}

// Skips `?:`, `?=`, `?!`, `?<=`, `?<!` and `?<name>` after an opening parenthesis.
function groupPrefixEnd(pattern: string, open: number): number {
  if (pattern[open + 1] !== "?") return open;
  const rest = pattern.slice(open + 2);
  const named = /^<[A-Za-z_$][\w$]*>/.exec(rest);
  if (named) return open + 1 + named[0].length;
  return open + 1 + (rest.startsWith("<=") || rest.startsWith("<!") ? 2 : 1);
}
