import { patchPaths } from "../tools/files/parse-patch.ts";
import { modelPath } from "../files/project-paths.ts";

/** shiro's file tools that name one file by `path`, where Claude Code's Read, Write and Edit say `file_path`. */
const ONE_FILE = new Set(["read_file", "write_file", "edit_file"]);

/**
 * A call's arguments as a hook reads them in `tool_input`: the model's own, and beside them what a
 * script written for Claude Code looks for — `file_path`, absolute as Claude Code's always is, for
 * each file tool; for `apply_patch`, which may touch several files, `file_path` is the first it names
 * and `file_paths` all of them (Move to targets too), so a formatter brought over still finds a file
 * and one written for shiro can take every one. `bash` already has `command`, as Claude Code's Bash.
 */
export function hookToolInput(tool: string, input: unknown, root: string): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const args = input as Record<string, unknown>;
  if (ONE_FILE.has(tool) && typeof args.path === "string") return { ...args, file_path: modelPath(root, args.path) };
  if (tool !== "apply_patch" || typeof args.patch !== "string") return input;
  const paths = patchPaths(args.patch).map((path) => modelPath(root, path));
  return paths.length ? { ...args, file_path: paths[0], file_paths: paths } : input;
}
