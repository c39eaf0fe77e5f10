import { ToolError } from "./tool.ts";
import { findNearMatch } from "./near-match.ts";

export type EditRequest = { old_string: string; new_string: string; replace_all?: boolean };

/** The new content after an exact-string replacement, or a ToolError explaining why it cannot be made. Pure. */
export function planEdit(content: string, edit: EditRequest, shown: string): { updated: string; count: number } {
  // The model writes "\n"; in a CRLF file its text only matches (and stays consistent) with "\r\n".
  const crlf = content.includes("\r\n") && !edit.old_string.includes("\r");
  const oldText = crlf ? edit.old_string.replace(/\n/g, "\r\n") : edit.old_string;
  const newText = crlf ? edit.new_string.replace(/\n/g, "\r\n") : edit.new_string;
  if (oldText === "") throw new ToolError(`old_string is empty. To create or overwrite ${shown}, use write_file.`);
  if (oldText === newText) throw new ToolError("old_string and new_string are identical; there is nothing to change.");
  const starts = occurrences(content, oldText);
  if (starts.length === 0) {
    const near = findNearMatch(content, oldText);
    const hint = !near
      ? " Read the file again and copy the exact text, including indentation."
      : near.whitespaceOnly
        ? ` The text at line ${near.line} differs only in whitespace: ${JSON.stringify(near.text)}. Copy its exact indentation.`
        : ` The closest line is ${near.line}: ${JSON.stringify(near.text)}. Read the file again and copy the exact text.`;
    throw new ToolError(`old_string was not found in ${shown}.${hint}`);
  }
  if (starts.length > 1 && !edit.replace_all) {
    const lineNumbers = starts.slice(0, 10).map((at) => lineOf(content, at));
    throw new ToolError(
      `old_string occurs ${starts.length} times in ${shown} (lines ${lineNumbers.join(", ")}${starts.length > 10 ? ", …" : ""}). ` +
        "Include more surrounding lines to make it unique, or set replace_all: true to change every occurrence.",
    );
  }
  // split/join and slicing avoid String.replace's `$&` substitutions in new_string.
  const updated = edit.replace_all ? content.split(oldText).join(newText) : content.slice(0, starts[0]) + newText + content.slice(starts[0]! + oldText.length);
  return { updated, count: starts.length };
}

function occurrences(content: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

const lineOf = (content: string, index: number) => content.slice(0, index).split("\n").length;
