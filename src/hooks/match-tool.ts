/**
 * Whether a hook's matcher fits a tool's name: alternatives split by `|`, each a name where `*` is
 * any run of characters (`mcp__github__*`); none, empty or `*` fits every tool. Letters match in any
 * case, so a script written for Claude Code's `Bash` still finds shiro's `bash`.
 */
export function matchesTool(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher.trim() === "" || matcher.trim() === "*") return true;
  const name = tool.toLowerCase();
  return matcher.split("|").some((alternative) => globFits(alternative.trim().toLowerCase(), name));
}

/** `*`-only globbing by pieces: each literal piece found in order, the ends anchored (linear in the name). */
function globFits(glob: string, name: string): boolean {
  const pieces = glob.split("*");
  if (pieces.length === 1) return glob === name;
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  if (!name.startsWith(first) || !name.endsWith(last) || first.length + last.length > name.length) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = name.indexOf(piece, at);
    if (found < 0 || found + piece.length > name.length - last.length) return false;
    at = found + piece.length;
  }
  return true;
}
