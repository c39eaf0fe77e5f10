export const SESSIONS_USAGE = "usage: shiro sessions [--all] [--json]";
export const INSPECT_USAGE = "usage: shiro inspect <session> [--turns | <call> [--diff] [--full]] [--json]";
export const EXPORT_USAGE = "usage: shiro export <session> [--format md|json|html] [-o <file>]";
export const IMPORT_USAGE = "usage: shiro import <file>";
export const UNDO_USAGE = "usage: shiro undo [--list] [--to <turn>] [-r <session>] [--force] [--json] | shiro undo --prune";
export const MCP_USAGE = "usage: shiro mcp list [--mcp-config <file>]… | shiro mcp test <name> [--mcp-config <file>]…";
export const ACP_USAGE = "usage: shiro acp [options]";
const REGISTRY_USAGE = "usage: shiro registry [list | search <query> | add <name> [--yes] | remove <name> | installed]";

/** What `shiro <subcommand> --help` prints: its usage, what it does, its options, where it is documented. */
const HELP: Record<string, string[]> = {
  sessions: [SESSIONS_USAGE, "The sessions saved in this folder, newest first: id, when, turns, cost, the first prompt.", "  --all    every folder's sessions", "  --json   one JSON array (docs/sessions.md)"],
  inspect: [
    INSPECT_USAGE,
    "What a session did and what it sent (docs/inspect.md).",
    "  <session>            an id or prefix from shiro sessions: one row per turn",
    "  --turns              each model call on one line, with what was new in it",
    "  <call> [--full]      one call: what it sent (--full: the exact request body)",
    "  <call> --diff        what a call reuses from the one before and what it adds",
    "  --json               the same as JSON",
  ],
  export: [
    EXPORT_USAGE,
    "A session's conversation to read or hand on (docs/export.md): prompts, answers, tool calls with their outcome lines, diffs, images, cost. Secrets stay redacted as the log holds them.",
    "  <session>         an id or prefix from shiro sessions",
    "  --format md       Markdown (the default)",
    "  --format html     one self-contained page, no scripts",
    "  --format json     the versioned shape shiro import reads",
    "  -o <file>         write it to a file instead of stdout",
  ],
  import: [
    IMPORT_USAGE,
    "A JSON export (shiro export --format json) as a new session of this folder, so shiro -c goes on with it (docs/export.md says what an import leaves out).",
  ],
  registry: [REGISTRY_USAGE, "Skills and plugins from the registry (docs/registry.md); a name may be skill:<name> or plugin:<name>.", "  --yes    add without asking"],
  doctor: ["usage: shiro doctor", "What this run would use and why: the version, the sandbox in force (and what it does not hold), the config file read, the state folder, the base URL, whether a key is set."],
  undo: [
    UNDO_USAGE,
    "Puts back the files the newest session in this folder that changed files changed in its last turn (docs/undo.md).",
    "  --list         the turns that can be undone, with the session's id",
    "  --to <turn>    undo back to before that turn",
    "  -r <session>   another session (an id or prefix from --list or shiro sessions)",
    "  --force        also over changes made since the turn (a copy of them is kept)",
    "  --json         the outcome as JSON",
    "  --prune        remove checkpoints older than the retention",
  ],
  acp: [
    ACP_USAGE,
    "shiro as an Agent Client Protocol agent on stdin and stdout, for an editor to start: Zed, JetBrains, Neovim (docs/editors.md).",
    "Takes the session options of shiro (--model, --yolo, --allow, --sandbox, --mcp-config, …); the editor sends the prompts.",
  ],
  mcp: [MCP_USAGE, "The MCP servers this run would start (docs/mcp.md).", "  list                 each server, where it is configured, whether it is approved", "  test <name>          start it, list its tools, ping it: ✓ exit 0, ✗ exit 1", "  --mcp-config <file>  servers in the .mcp.json shape, for this run (repeatable)"],
};

/** The help of `name` when its args ask for it (`--help` or `-h` before any `--`), else undefined. */
export function subcommandHelp(name: string, args: readonly string[]): string | undefined {
  const end = args.indexOf("--");
  const asks = (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
  return asks && HELP[name] ? HELP[name].join("\n") : undefined;
}
