/**
 * Claude Code's tool names, for a matcher brought from it: each stands for the shiro tools that do that
 * work (an edit can also be an `apply_patch`), so a guard written for `Edit|Write` still sees every edit.
 */
const CLAUDE_NAMES: Readonly<Record<string, readonly string[]>> = {
  edit: ["edit_file", "apply_patch"],
  multiedit: ["edit_file", "apply_patch"],
  write: ["write_file", "apply_patch"],
  read: ["read_file"],
  ls: ["list_dir"],
  todowrite: ["todo_write"],
};

/**
 * Whether a hook's matcher fits a tool's name: alternatives split by `|`, each a name where `*` (or
 * Claude Code's regex `.*`) is any run of characters (`mcp__github__*`); none, empty or `*` fits every
 * tool. Letters match in any case, so a script written for Claude Code's `Bash` still finds shiro's
 * `bash`, and its `Edit`, `Write`, `Read`, `LS` name the shiro tools that do the same.
 */
export function matchesTool(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher.trim() === "" || matcher.trim() === "*" || matcher.trim() === ".*") return true;
  const name = tool.toLowerCase();
  return matcher.split("|").some((raw) => {
    const alternative = raw.trim().toLowerCase().replaceAll(".*", "*");
    return globFits(alternative, name) || (CLAUDE_NAMES[alternative]?.includes(name) ?? false);
  });
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
