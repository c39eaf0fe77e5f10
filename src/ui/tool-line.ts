/** One-line summaries of tool calls and results, shared by print mode's progress and the REPL. */

const SUBJECT_KEYS = ["command", "path", "pattern", "query", "name", "text", "kind"] as const;

export function callSubject(argumentsJson: string, max = 80): string {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    return clip(argumentsJson, max);
  }
  if (typeof args !== "object" || args === null) return "";
  if (typeof args.patch === "string") return clip(patchFiles(args.patch).join(", "), max);
  for (const key of SUBJECT_KEYS) {
    if (typeof args[key] === "string") return clip(args[key] as string, max);
  }
  return "";
}

export function outcomeLine(output: string, max = 100): string {
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  const first = lines[0]?.trim() ?? "(no output)";
  return clip(first, max) + moreLines(lines.length - 1);
}

/** A successful call's outcome: a read says which lines it got rather than echo the first one. */
export function successLine(tool: string, output: string): string {
  return (tool === "read_file" && readRange(output)) || outcomeLine(output);
}

// read_file numbers its lines like `cat -n` and ends a partial read with "[showing lines a-b of n; …]".
function readRange(output: string): string | undefined {
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  const numbers = lines.map((l) => /^\s*(\d+)\t/.exec(l)?.[1]).filter((n) => n !== undefined);
  const first = numbers[0];
  const last = numbers.at(-1);
  if (first === undefined || last === undefined || lines.length - numbers.length > 1) return undefined;
  const total = /of (\d+);/.exec(lines.at(-1)!)?.[1];
  return `${first === last ? `line ${first}` : `lines ${first}–${last}`}${total ? ` of ${total}` : ""}`;
}

/**
 * The verdict of a failed call: a tool that ends its output with a note after a blank line (bash's
 * "Exit code: 1", "Stopped by the user (Ctrl-C)…") is summed up by that note, others by their first line.
 */
export function failureLine(output: string, max = 100): string {
  const paragraphs = output.trim().split(/\n\s*\n/);
  if (paragraphs.length < 2) return outcomeLine(output, max);
  const note = paragraphs.at(-1)!.split("\n")[0]!;
  // bash's "(no output)" placeholder is not a line the person could go and read.
  const others = output.trim().split("\n").filter((l) => l.trim() !== "" && l.trim() !== "(no output)").length - 1;
  return clip(note, max) + moreLines(others);
}

const moreLines = (n: number) => (n > 0 ? ` (+${n} ${n === 1 ? "line" : "lines"})` : "");

/** "1 model call", "3 model calls": how far a run got. */
export const modelCalls = (n: number): string => `${n} model ${n === 1 ? "call" : "calls"}`;

/** A denial whole, on one line: never clipped, since its end says how to allow the call. */
export const denialLine = (output: string): string => output.replace(/^Denied: /, "").replace(/\s+/g, " ").trim();

function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}
