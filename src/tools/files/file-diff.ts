import { createTwoFilesPatch, diffLines, FILE_HEADERS_ONLY } from "diff";
import { plural } from "../../text/plural.ts";

/** A unified diff of one file for people to read; `undefined` stands for "did not exist". */
export function fileDiff(label: string, before: string | undefined, after: string | undefined, newLabel = label): string {
  return createTwoFilesPatch(before === undefined ? "/dev/null" : label, after === undefined ? "/dev/null" : newLabel, before ?? "", after ?? "", undefined, undefined, {
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** Lines added and removed between two versions of a text. */
export function lineChanges(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

export const countLines = (text: string): number => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

export function describeChange(shown: string, before: string | undefined, after: string): string {
  if (before === undefined) {
    const lines = countLines(after);
    return `Created ${shown} (${plural(lines, "line")})`;
  }
  if (before === after) return `No change to ${shown}`;
  const { added, removed } = lineChanges(before, after);
  return `Updated ${shown}: +${added} −${removed} lines`;
}
