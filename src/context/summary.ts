import type { CompactionMessage, Message } from "../session/messages.ts";
import { activeStart } from "../wire/serialise-input.ts";
import { clipText } from "../text/clip-text.ts";

export const SUMMARY_SECTIONS = ["Goal", "Files touched", "Decisions", "Commands and outcomes", "What remains"] as const;

// A summary shorter than this cannot carry the five sections; it is taken as a failed call.
export const MIN_SUMMARY_CHARS = 120;
// Per entry of the transcript handed to the summariser; the summary needs outcomes, not whole files.
const ENTRY_MAX_CHARS = 1_500;
const DEFAULT_BUDGET_CHARS = 300_000;

/** One message's entries in the transcript handed to the summariser. */
function entriesOf(m: Message): string[] {
  if (m.role === "compaction") return [`[earlier summary]\n${m.summary}`];
  if (m.role === "user") return [`[user${m.images?.length ? `, with ${m.images.length === 1 ? "an image" : `${m.images.length} images`}` : ""}]\n${clipText(m.text, ENTRY_MAX_CHARS * 4)}`];
  if (m.role === "tool") return m.results.map((r) => `[${r.isError ? "error" : "result"} ${r.callId}]\n${clipText(r.output, ENTRY_MAX_CHARS)}`);
  const entries: string[] = [];
  for (const p of m.parts) {
    if (p.type === "text" && p.text.trim()) entries.push(`[assistant]\n${clipText(p.text, ENTRY_MAX_CHARS)}`);
    if (p.type === "tool-call") entries.push(`[call ${p.callId}] ${p.name} ${clipText(p.arguments, ENTRY_MAX_CHARS / 3)}`);
  }
  return entries;
}

/** How many entries `entriesOf` makes of a message, without making them. */
function entryCount(m: Message): number {
  if (m.role !== "assistant") return m.role === "tool" ? m.results.length : 1;
  let n = 0;
  for (const p of m.parts) if (p.type === "tool-call" || (p.type === "text" && /\S/.test(p.text))) n++;
  return n;
}

/**
 * The transcript on the wire: the first entry (the task) and as many of the newest as fit in
 * `budget`, noting how many were left out. Made from the newest entry back, so a long history costs
 * what the budget holds, not what the history does (a resume's summary reads the tail of 20,000 messages).
 */
function fitTranscript(messages: readonly Message[], budget: number): string {
  const start = activeStart(messages);
  let n = 0;
  for (let i = start; i < messages.length; i++) n += entryCount(messages[i]!);
  if (n === 0) return "";
  let first!: string;
  for (let i = start; first === undefined; i++) first = entriesOf(messages[i]!)[0]!;
  // Newest first: entries [from, n) are kept while the first and they fit (the newest always is).
  const kept: string[] = [];
  let chars = first.length + 2;
  let from = n;
  for (let i = messages.length - 1; i >= start && from > 1; i--) {
    const entries = entriesOf(messages[i]!);
    for (let e = entries.length - 1; e >= 0 && from > 1; e--) {
      const entry = entries[e]!;
      if (from < n && chars + entry.length + 2 > budget) return [first, `[… ${from - 1} entries left out …]`, ...kept.reverse()].join("\n\n");
      kept.push(entry);
      chars += entry.length + 2;
      from--;
    }
  }
  // Down to the second entry: when all of them fit, nothing is left out.
  if (chars <= budget || n < 2) return [first, ...kept.reverse()].join("\n\n");
  return [first, `[… 0 entries left out …]`, ...kept.reverse()].join("\n\n");
}

/**
 * The one user message for a `/compact` call (sent with no tools): the transcript on the wire,
 * clipped to `budgetChars`, and instructions for a summary under the five section headings.
 */
export function buildSummaryRequestText(messages: readonly Message[], focus?: string, budgetChars = DEFAULT_BUDGET_CHARS): string {
  const headings = SUMMARY_SECTIONS.map((s) => `## ${s}`).join("\n");
  return [
    "Summarise the coding session transcript below so that work can continue from the summary alone.",
    "Do not call tools. Be concrete: exact file paths, commands, error messages, names and numbers.",
    `Use exactly these sections, as Markdown headings:\n${headings}`,
    "Under Commands and outcomes, list each command or tool call that mattered and what came of it, so nothing is repeated needlessly.",
    ...(focus?.trim() ? [`Pay particular attention to: ${focus.trim()}`] : []),
    `<transcript>\n${fitTranscript(messages, budgetChars)}\n</transcript>`,
  ].join("\n\n");
}

/**
 * The marker that replaces the transcript on the wire, or null when the reply is unusable
 * (empty, too short, no Goal section) — then the caller leaves the history as it was.
 */
export function acceptSummary(text: string | undefined): CompactionMessage | null {
  const summary = text?.trim() ?? "";
  if (summary.length < MIN_SUMMARY_CHARS) return null;
  if (!/^[#*\s]*goal\b/im.test(summary)) return null;
  return { role: "compaction", summary };
}
