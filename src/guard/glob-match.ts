import { join } from "node:path";

/**
 * Compiles a permission pattern. For paths: `*` and `?` stay within one folder, `**` spans folders
 * (`**\/x` also matches `x` at the top), `~/` is the home folder. For commands: `*` matches anything,
 * and a trailing ` *` also matches the bare command (`git *` matches `git`). `\` escapes a character.
 */
export function globToRegExp(pattern: string, mode: "path" | "command", home: string, ignoreCase = false): RegExp {
  // Every tool call matches every rule against each form of each subject; compile each pattern once.
  const key = `${mode}\0${ignoreCase}\0${home}\0${pattern}`;
  let compiled = compiledPatterns.get(key);
  if (!compiled) compiledPatterns.set(key, (compiled = compile(pattern, mode, home, ignoreCase)));
  return compiled;
}

// Patterns come from the permission rules, plugins and "always" answers: a few dozen a session.
const compiledPatterns = new Map<string, RegExp>();

function compile(pattern: string, mode: "path" | "command", home: string, ignoreCase: boolean): RegExp {
  const source = mode === "path" && pattern.startsWith("~/") ? join(home, pattern.slice(2)) : pattern;
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) out += escape(source[++i]!);
    else if (mode === "command" && c === " " && source.slice(i + 1) === "*") {
      out += "(?: .*)?";
      i++;
    } else if (c === "*" && mode === "command") out += ".*";
    else if (c === "*" && source[i + 1] === "*") {
      const slashAfter = source[i + 2] === "/";
      const atSegmentStart = i === 0 || source[i - 1] === "/";
      out += atSegmentStart && slashAfter ? "(?:.*/)?" : ".*";
      i += slashAfter && atSegmentStart ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += mode === "command" ? "." : "[^/]";
    else out += escape(c);
  }
  return new RegExp(`^${out}$`, ignoreCase ? "is" : "s");
}

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** Escapes a literal path or command so it can serve as a pattern matching only itself. */
export const literalPattern = (text: string) => text.replace(/[\\*?]/g, "\\$&");
