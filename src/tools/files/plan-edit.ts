import { ToolError } from "../tool.ts";
import { findNearMatch } from "./near-match.ts";

export type EditRequest = { old_string: string; new_string: string; replace_all?: boolean };
/** The stretch [from, to) of the content an edit replaces, and what it puts there (line breaks as the file's). */
export type Replacement = { from: number; to: number; text: string };

/**
 * The new content after an exact-string replacement, or a ToolError explaining why it cannot be made. Pure.
 * The model's text has `\n` line breaks (read_file shows no `\r`), so it is matched against the content
 * with every `\r\n` read as `\n`; each replacement's line breaks take the ending found where it starts
 * (see `endingAt`), and every byte outside the replaced text stays as it was — a mixed file stays mixed.
 */
export function planEdit(content: string, edit: EditRequest, shown: string): { updated: string; count: number; replacements: Replacement[] } {
  const view = content.replaceAll("\r\n", "\n");
  const oldText = edit.old_string.replaceAll("\r\n", "\n");
  const newText = edit.new_string.replaceAll("\r\n", "\n");
  if (oldText === "") throw new ToolError(`old_string is empty. To create or overwrite ${shown}, use write_file.`);
  if (oldText === newText) throw new ToolError("old_string and new_string are identical; there is nothing to change.");
  const starts = occurrences(view, oldText);
  if (starts.length === 0) {
    const near = findNearMatch(view, oldText);
    const hint = !near
      ? " Read the file again and copy the exact text, including indentation."
      : near.whitespaceOnly
        ? ` The text at line ${near.line} differs only in whitespace: ${JSON.stringify(near.text)}. Copy its exact indentation.`
        : ` The closest line is ${near.line}: ${JSON.stringify(near.text)}. Read the file again and copy the exact text.`;
    throw new ToolError(`old_string was not found in ${shown}.${hint}`);
  }
  if (starts.length > 1 && !edit.replace_all) {
    const lineNumbers = starts.slice(0, 10).map((at) => lineOf(view, at));
    throw new ToolError(
      `old_string occurs ${starts.length} times in ${shown} (lines ${lineNumbers.join(", ")}${starts.length > 10 ? ", …" : ""}). ` +
        "Include more surrounding lines to make it unique, or set replace_all: true to change every occurrence.",
    );
  }
  const inContent = contentIndex(content);
  // Slicing (not String.replace) keeps new_string literal: no `$&` substitutions.
  const replacements = (edit.replace_all ? starts : starts.slice(0, 1)).map((at) => {
    const from = inContent(at);
    return { from, to: inContent(at + oldText.length), text: newText.replaceAll("\n", endingAt(content, from)) };
  });
  let updated = "";
  let kept = 0;
  for (const { from, to, text } of replacements) {
    updated += content.slice(kept, from) + text;
    kept = to;
  }
  return { updated: updated + content.slice(kept), count: starts.length, replacements };
}

/** Maps an index in the content with `\r\n` read as `\n` back to the content itself. */
function contentIndex(content: string): (index: number) => number {
  const crlfs: number[] = [];
  for (let at = content.indexOf("\r\n"); at !== -1; at = content.indexOf("\r\n", at + 2)) crlfs.push(at - crlfs.length);
  return (index) => {
    let low = 0;
    let high = crlfs.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (crlfs[mid]! < index) low = mid + 1;
      else high = mid;
    }
    return index + low;
  };
}

/** The line break at or after `from` (else the last one before it) as it is in the file; `\n` when it has none. */
function endingAt(content: string, from: number): string {
  const next = content.indexOf("\n", from);
  const at = next !== -1 ? next : content.lastIndexOf("\n", from);
  return at > 0 && content[at - 1] === "\r" ? "\r\n" : "\n";
}

function occurrences(content: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

const lineOf = (content: string, index: number) => content.slice(0, index).split("\n").length;
