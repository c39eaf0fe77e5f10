import type pc from "picocolors";
import { clipLine } from "../text/one-line.ts";

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
  const more = lines.length - 1;
  return clipLine(first, max) + (more > 0 ? ` (+${more} ${more === 1 ? "line" : "lines"})` : "");
}

/**
 * The verdict of a failed call: a tool that ends its output with a note after a blank line (bash's
 * "Exit code: 1", "Stopped by the user (Ctrl-C)…") is summed up by that note, others by their first line.
 */
export function failureLine(output: string, max = 100): string {
  const paragraphs = output.trim().split(/\n\s*\n/);
  if (paragraphs.length < 2) return outcomeLine(output, max);
  const note = paragraphs.at(-1)!.split("\n")[0]!;
  const before = output.trim().split("\n").filter((l) => l.trim() !== "").length - 1;
  return clipLine(note, max) + ` (+${before} lines)`;
}

type Result = { output: string; isError: boolean; denied: boolean };

/** What leads a result's line: ✓, ✗, or "✗ denied:". */
export const resultMark = (r: Result, c: ReturnType<typeof pc.createColors>): string =>
  r.denied ? c.red("✗ denied:") : r.isError ? c.red("✗") : c.green("✓");

/** The text a result's line summarises; a denial's "Denied: " prefix (written for the model) would repeat the mark. */
export const resultText = (r: Result): string => (r.denied ? r.output.replace(/^Denied: /, "") : r.output);

function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
}
