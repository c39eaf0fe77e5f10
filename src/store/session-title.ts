import type { Message } from "../session/messages.ts";
import { clipLine } from "../text/one-line.ts";

export const TITLE_CHARS = 60;

/** What the person typed ends where attached context begins: an `@path` file or piped stdin. */
const ATTACHED_CONTEXT = /\n\n<(?:file path="|stdin>\n)/;

/** The first prompt on one line, without attached context, clipped to 60 characters. */
export function titleOf(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === "user");
  return first?.role === "user" ? clipLine(first.text.split(ATTACHED_CONTEXT)[0]!, TITLE_CHARS) : "";
}
