import { clipLine } from "../text/one-line.ts";

/** How a call is named to the model in stubs and notes: its tool and what it touched. */

export type CallSubjectKind = "command" | "path" | "search" | "other";

// Argument names the tools use for what they act on, most telling first.
const SUBJECT_KEYS: ReadonlyArray<readonly [key: string, kind: CallSubjectKind]> = [
  ["command", "command"],
  ["cmd", "command"],
  ["pattern", "search"],
  ["query", "search"],
  ["path", "path"],
  ["file_path", "path"],
  ["filePath", "path"],
  ["paths", "path"],
  ["url", "other"],
];

const MAX_SUBJECT = 80;

export function parseArguments(args: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function callSubject(args: string): { kind: CallSubjectKind; text: string } | undefined {
  const parsed = parseArguments(args);
  if (!parsed) return undefined;
  for (const [key, kind] of SUBJECT_KEYS) {
    const value = parsed[key];
    const text = typeof value === "string" ? value : Array.isArray(value) ? value.filter((v) => typeof v === "string").join(" ") : "";
    if (text) return { kind, text: clipLine(text, MAX_SUBJECT) };
  }
  return undefined;
}

// A call is described by its stub and again by the note that replaces it: its arguments are parsed once.
const subjects = new WeakMap<object, ReturnType<typeof callSubject>>();

/** `callSubject` of a call (an object the history holds), found once. */
export function subjectOf(call: { arguments: string }): ReturnType<typeof callSubject> {
  if (!subjects.has(call)) subjects.set(call, callSubject(call.arguments));
  return subjects.get(call);
}

/** `read_file src/a.ts`, `bash \`npm test\``, `grep "TODO"`, or just the tool name, given the call's subject. */
export function describeSubject(name: string, subject: ReturnType<typeof callSubject>): string {
  if (!subject) return name;
  if (subject.kind === "command") return `${name} \`${subject.text}\``;
  if (subject.kind === "search") return `${name} "${subject.text}"`;
  return `${name} ${subject.text}`;
}

/** The first non-empty line of a text, shortened. */
export function firstLine(text: string, max: number): string {
  const from = text.search(/\S/);
  if (from < 0) return "";
  const end = text.indexOf("\n", from);
  return clipLine(text.slice(from, Math.min(end < 0 ? text.length : end, from + max * 2)), max);
}
