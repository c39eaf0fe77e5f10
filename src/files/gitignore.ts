/** One parsed `.gitignore` line. `base` is the folder (relative to the root, "" for the root) it came from. */
export type IgnoreRule = { base: string; regex: RegExp; negate: boolean; dirOnly: boolean };

/** Parses the text of one `.gitignore` found in `base` (a root-relative folder, "" for the root). */
export function parseGitignore(text: string, base = ""): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    }
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.replace(/\/+$/, "");
    if (line === "") continue;
    // A slash at the start or in the middle anchors the pattern to its folder; otherwise it matches at any depth.
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegex(line);
    rules.push({ base, negate, dirOnly, regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) });
  }
  return rules;
}

/** Translates gitignore glob syntax (`*`, `?`, `**`, `[...]`, `\x`) into a regex body over `/`-separated paths. */
export function globToRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          if (i + 2 === glob.length) out += ".*";
          else out += "(?:.*/)?";
          i += 2; // also skip the following slash
          continue;
        }
      }
      out += "[^/]*";
      while (glob[i + 1] === "*") i++;
    } else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < glob.length) out += escapeRegex(glob[++i]!);
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) out += "\\[";
      else {
        let cls = glob.slice(i + 1, close);
        if (cls.startsWith("!")) cls = "^" + cls.slice(1);
        out += `[${cls.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else out += escapeRegex(c);
  }
  return out;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Decides one path on its own (not its ancestors): the last matching rule wins, so a later `!pattern`
 * re-includes. `relPath` is root-relative with `/` separators.
 */
export function matchIgnoreRules(rules: readonly IgnoreRule[], relPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rule.base !== "" && !relPath.startsWith(rule.base + "/")) continue;
    const local = rule.base === "" ? relPath : relPath.slice(rule.base.length + 1);
    if (rule.regex.test(local)) ignored = !rule.negate;
  }
  return ignored;
}

/**
 * Whether `relPath` is hidden. As in git, a file inside an ignored folder stays ignored even if a
 * later rule would re-include it, so every ancestor folder is checked first. `.git` is always hidden.
 */
export function isIgnored(rules: readonly IgnoreRule[], relPath: string, isDir: boolean): boolean {
  const parts = relPath.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.includes(".git")) return true;
  for (let i = 1; i < parts.length; i++) {
    if (matchIgnoreRules(rules, parts.slice(0, i).join("/"), true)) return true;
  }
  return parts.length > 0 && matchIgnoreRules(rules, parts.join("/"), isDir);
}
