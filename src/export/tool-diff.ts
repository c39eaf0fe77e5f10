import { diffLines } from "diff";
import type { ToolResult } from "../session/messages.ts";

/**
 * What a file tool wrote, as a diff a person reads, worked out from the call's own arguments (the log
 * keeps no file contents): an edit's old and new text, a new file's content, a patch as given. None
 * for a failed call, another tool, or a file replaced whole (what it held before is not in the log).
 */
export function toolDiff(name: string, argumentsJson: string, result: ToolResult): string | undefined {
  if (result.isError) return undefined;
  const args = parsed(argumentsJson) ?? {};
  const { path, old_string, new_string, content, patch } = args;
  if (name === "apply_patch" && typeof patch === "string") return patch.replace(/\n?$/, "\n");
  if (typeof path !== "string") return undefined;
  if (name === "edit_file" && typeof old_string === "string" && typeof new_string === "string") return changeLines(path, old_string, new_string);
  if (name === "write_file" && typeof content === "string" && result.output.startsWith("Created ")) return changeLines(path, undefined, content);
  return undefined;
}

function parsed(json: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(json);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `before` → `after` line by line, under a `---`/`+++` header: no hunk numbers, since an edit's text is not placed in its file here. */
function changeLines(path: string, before: string | undefined, after: string): string {
  const lines = [`--- ${before === undefined ? "/dev/null" : path}`, `+++ ${path}`];
  for (const part of diffLines(before ?? "", after)) {
    const mark = part.added ? "+" : part.removed ? "-" : " ";
    for (const line of part.value.replace(/\n$/, "").split("\n")) lines.push(mark + line);
  }
  return lines.join("\n") + "\n";
}
