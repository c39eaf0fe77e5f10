import { parsePatch } from "diff";
import { modelPath } from "../files/project-paths.ts";

/** ACP's `diff` content: a file's text before (absent for a new one) and after, the path absolute. */
export type AcpDiff = { type: "diff"; path: string; oldText?: string; newText: string };

/**
 * The diffs an editor shows for a unified diff as the file tools write it (their result's `display`,
 * an approval's preview): per file, its hunks' old and new lines. Hunks, not whole files — neither the
 * log nor a preview holds the rest, and an editor draws the same change from them. Pure.
 */
export function acpDiffs(unified: string, root: string): AcpDiff[] {
  let files;
  try {
    files = parsePatch(unified);
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    const name = file.newFileName && file.newFileName !== "/dev/null" ? file.newFileName : file.oldFileName;
    if (!name || name === "/dev/null") return [];
    const side = (skip: string) =>
      file.hunks
        .map((hunk) => hunk.lines.filter((line) => line[0] !== skip && line[0] !== "\\").map((line) => line.slice(1)).join("\n"))
        .join("\n…\n");
    const created = file.oldFileName === "/dev/null";
    return [{ type: "diff" as const, path: modelPath(root, name), ...(created ? {} : { oldText: side("+") }), newText: file.newFileName === "/dev/null" ? "" : side("-") }];
  });
}
