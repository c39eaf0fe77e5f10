import { statSync } from "node:fs";
import { basename } from "node:path";
import { diskFs, resolvePath } from "./resolve-path.ts";
import { shellCommands } from "./shell-commands.ts";

// Programs whose first argument that is no option is a script they run (`bun run x.ts`: after `run`).
const INTERPRETERS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "source", ".", "node", "bun", "deno", "tsx", "ts-node", "uv", "python", "ruby", "perl", "php"]);

/**
 * The project's files a program line runs when it starts: its program when named by a path
 * (`./fmt.sh`, `"$CLAUDE_PROJECT_DIR"/hooks/x.sh`), and the script an interpreter is given (`bash
 * scripts/lint.sh`, `node server.js`, `bun run x.ts`) — where they really are, or would be (the model
 * would plant a missing one). A hook or an MCP server runs them as the person, outside the sandbox, so
 * the model must not rewrite them (runs-later.ts). Arguments to other programs are their data; what a
 * script itself loads is not followed.
 */
export function programFiles(argv: readonly string[], cwd: string, root: string, home: string): string[] {
  const env = { root, home, fs: diskFs };
  const program = argv[0] ?? "";
  const script = scriptOf(argv);
  return [...(program.includes("/") ? [program] : []), ...(script !== undefined ? [script] : [])].flatMap((word) => {
    const resolved = resolvePath(word, env, cwd);
    // A folder (`node .`) is no script of its own.
    return resolved.insideRoot && !statSync(resolved.real, { throwIfNoEntry: false })?.isDirectory() ? [resolved.real] : [];
  });
}

/** The script an interpreter's line runs (`node server.js`, `bun run x.ts`: its first word that is no option), as written. */
export function scriptOf(argv: readonly string[]): string | undefined {
  const [program = "", ...args] = argv;
  // `bun.exe`, `python3.12`: the interpreter whatever its build or version.
  const named = basename(program).toLowerCase().replace(/\.exe$/, "").replace(/(?<=[a-z])[\d.]+$/, "");
  return INTERPRETERS.has(named) && !args.includes("-c") ? args.find((arg, i) => !arg.startsWith("-") && !(i === 0 && arg === "run")) : undefined;
}

// Scripts written for Claude Code name their folder by these (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`).
const PROJECT_DIR = /\$\{?(?:CLAUDE|SHIRO)_PROJECT_DIR\}?/g;

/** `programFiles` of a hook's command line (`bash -c` runs it in the project): every command of it. */
export function hookProgramFiles(command: string, root: string, home: string): string[] {
  return shellCommands(command.replace(PROJECT_DIR, root), { cwd: root, home }).flatMap((cmd) => programFiles(cmd.written, cmd.cwd, root, home));
}
