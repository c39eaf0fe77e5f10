import type pc from "picocolors";
import { clipLine, oneLine } from "../text/one-line.ts";
import { plural } from "../text/plural.ts";

/** One-line summaries of tool calls and results, shared by print mode's progress and the REPL. */

const SUBJECT_KEYS = ["command", "path", "pattern", "query", "name", "text", "kind"] as const;

export function callSubject(argumentsJson: string, max = 80): string {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    return clipLine(argumentsJson, max);
  }
  if (typeof args !== "object" || args === null) return "";
  if (typeof args.patch === "string") return clipLine(patchFiles(args.patch).join(", "), max);
  for (const key of SUBJECT_KEYS) {
    if (typeof args[key] === "string") return clipLine(args[key] as string, max);
  }
  return "";
}

export function outcomeLine(output: string, max = 100): string {
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  const first = lines[0]?.trim() ?? "(no output)";
  return clipLine(first, max) + moreLines(lines.length - 1);
}

/** A successful call's outcome: a read says which lines it got, a glob how many files, a command its exit code. */
export function successLine(tool: string, output: string): string {
  if (tool === "read_file") return readRange(output) ?? outcomeLine(output);
  if (tool === "glob") return globLine(output);
  if (tool === "bash") return closingNoteLine(output);
  return outcomeLine(output);
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

// glob lists one file a line, then perhaps its notes (glob.ts): "[N more not shown; …]", "[searched only the first …]".
const GLOB_MORE = /^\[(\d+) more not shown;/;
const GLOB_CUT = /^\[searched only the first /;

/** The first file a glob found and how many more: the lines it adds about the search are no files. */
function globLine(output: string): string {
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  const files = lines.filter((l) => !GLOB_MORE.test(l) && !GLOB_CUT.test(l));
  if (files.length === 0) return outcomeLine(output);
  const unshown = lines.reduce((n, l) => n + Number(GLOB_MORE.exec(l)?.[1] ?? 0), 0);
  return clipLine(files[0]!, 100) + more(files.length - 1 + unshown, "file");
}

/**
 * A call summed up by its output's first line and the note the output ends with after a blank line
 * (bash's "Exit code: 1", "Stopped by the user (Ctrl-C)…"): `✓ 3 passed (+2 lines)`, `✗ Exit code: 1 ·
 * FAIL src/a.test.ts (+40 lines)`; "Exit code: 0" goes without saying where there is output to show.
 * Output the person saw stream (`firstLine` false) is not repeated: the note and how many lines it had.
 * Others by their first line.
 */
export function closingNoteLine(output: string, max = 100, firstLine = true): string {
  const paragraphs = output.trim().split(/\n\s*\n/);
  if (paragraphs.length < 2) return outcomeLine(output, max);
  const note = paragraphs.at(-1)!.split("\n")[0]!;
  // The lines after the note (the sandbox's word on the command) are for the model; bash's "(no output)"
  // placeholder is not a line the person could go and read.
  const body = paragraphs.slice(0, -1).join("\n").split("\n").filter((l) => l.trim() !== "" && l.trim() !== "(no output)");
  if (!body.length || !firstLine) return clipLine(note, max) + moreLines(body.length);
  const first = oneLine(body[0]!);
  return clipLine(note === "Exit code: 0" ? first : `${note} · ${first}`, max) + moreLines(body.length - 1);
}

const more = (n: number, noun: string) => (n > 0 ? ` (+${plural(n, noun)})` : "");
const moreLines = (n: number) => more(n, "line");

/** "1 model call", "3 model calls": how far a run got. */
export const modelCalls = (n: number): string => plural(n, "model call");

type Result = { name: string; output: string; isError: boolean; denied: boolean };

/** What leads a result's line: ✓, ✗, or "✗ denied:". */
export const resultMark = (r: Result, c: ReturnType<typeof pc.createColors>): string =>
  r.denied ? c.red("✗ denied:") : r.isError ? c.red("✗") : c.green("✓");

/** The text a result's line summarises; a denial's "Denied: " prefix (written for the model) would repeat the mark. */
const resultText = (r: Result): string => (r.denied ? r.output.replace(/^Denied: /, "") : r.output);

/**
 * What follows the mark. A denial is shown whole, never clipped, since its end says how to allow the call;
 * output already streamed to the screen is summed up by its closing note ("Exit code: 0"), not repeated;
 * output the person has not seen (print mode) by its first line.
 */
export function resultSummary(r: Result, streamed = false): string {
  if (r.denied) return oneLine(resultText(r));
  return r.isError || streamed ? closingNoteLine(r.output, 100, !streamed) : successLine(r.name, r.output);
}

function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
}
