import { modelPath } from "../files/project-paths.ts";
import { patchPaths } from "../tools/files/parse-patch.ts";

/** How an editor draws a call (its icon, how it follows along): ACP's tool kinds. */
export type AcpToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "switch_mode" | "other";

const KINDS: Record<string, AcpToolKind> = {
  read_file: "read",
  list_dir: "read",
  skill: "read",
  glob: "search",
  grep: "search",
  recall: "search",
  write_file: "edit",
  edit_file: "edit",
  apply_patch: "edit",
  bash: "execute",
  todo_write: "think",
};

/** A call's kind by its tool's name; an MCP server's tool, a child agent, a note: `other`. */
export const toolCallKind = (name: string): AcpToolKind => KINDS[name] ?? "other";

/** What a call touches and how it reads in a line, from its arguments as the model wrote them. Pure. */
export type CallView = { title: string; locations: { path: string }[]; rawInput: unknown };

/** `read_file src/a.ts`, `bash: npm test`, each path absolute in `locations` (an editor opens it). */
export function callView(name: string, argumentsJson: string, root: string): CallView {
  const args = parsedObject(argumentsJson);
  const paths = typeof args.patch === "string" ? patchPaths(args.patch) : typeof args.path === "string" ? [args.path] : [];
  const subject = typeof args.command === "string" ? `: ${args.command}` : paths.length ? ` ${paths.join(", ")}` : typeof args.pattern === "string" ? ` ${args.pattern}` : "";
  return { title: `${name}${subject}`, locations: paths.map((p) => ({ path: modelPath(root, p) })), rawInput: args };
}

function parsedObject(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
