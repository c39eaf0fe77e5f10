import type { ToolCallPart } from "../session/messages.ts";
import { formatCount } from "../text/format-count.ts";
import { describeSubject, parseArguments, subjectOf } from "./describe-call.ts";

// Outputs and argument values shorter than this are kept: a stub would save little and lose the content.
export const ELIDE_MIN_CHARS = 400;
const ARGUMENT_MIN_CHARS = 1_000;

const HOW_TO_GET_BACK = { path: "read it again if needed", command: "run it again if needed", search: "search again if needed", other: "call it again if needed" };

/** `[output of read_file src/a.ts elided: 8,192 chars — read it again if needed]`; `… 40 chars and 1 image — …` for a result with images. */
export function elisionStub(call: Pick<ToolCallPart, "name" | "arguments">, output: string, isError?: boolean, images = 0): string {
  const subject = subjectOf(call);
  const how = HOW_TO_GET_BACK[subject?.kind ?? "other"];
  const what = `${formatCount(output.length)} chars${images ? ` and ${images === 1 ? "1 image" : `${images} images`}` : ""}`;
  return `[${isError ? "error " : ""}output of ${describeSubject(call.name, subject)} elided: ${what} — ${how}]`;
}

/** Large string arguments (a whole file given to a write) become a short marker; the JSON stays valid. */
export function elideArguments(args: string): string {
  if (args.length < ARGUMENT_MIN_CHARS) return args;
  const parsed = parseArguments(args);
  if (!parsed) return args;
  let changed = false;
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === "string" && value.length >= ARGUMENT_MIN_CHARS) {
      parsed[key] = `[elided: ${formatCount(value.length)} chars]`;
      changed = true;
    }
  }
  return changed ? JSON.stringify(parsed) : args;
}
