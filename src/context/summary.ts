import type { CompactionMessage, Message } from "../session/messages.ts";
import { activeStart } from "../wire/serialise-input.ts";
import { clipText } from "../text/clip-text.ts";

export const SUMMARY_SECTIONS = ["Goal", "Files touched", "Decisions", "Commands and outcomes", "What remains"] as const;

// A summary shorter than this cannot carry the five sections; it is taken as a failed call.
export const MIN_SUMMARY_CHARS = 120;
// Per entry of the transcript handed to the summariser; the summary needs outcomes, not whole files.
const ENTRY_MAX_CHARS = 1_500;
const DEFAULT_BUDGET_CHARS = 300_000;

function transcriptEntries(messages: readonly Message[]): string[] {
  const entries: string[] = [];
  for (let i = activeStart(messages); i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "compaction") entries.push(`[earlier summary]\n${m.summary}`);
    else if (m.role === "user") entries.push(`[user]\n${clipText(m.text, ENTRY_MAX_CHARS * 4)}`);
    else if (m.role === "tool")
      for (const r of m.results) entries.push(`[${r.isError ? "error" : "result"} ${r.callId}]\n${clipText(r.output, ENTRY_MAX_CHARS)}`);
    else
      for (const p of m.parts) {
        if (p.type === "text" && p.text.trim()) entries.push(`[assistant]\n${clipText(p.text, ENTRY_MAX_CHARS)}`);
        if (p.type === "tool-call") entries.push(`[call ${p.callId}] ${p.name} ${clipText(p.arguments, ENTRY_MAX_CHARS / 3)}`);
      }
  }
  return entries;
}

/** Keeps the first entry (the task) and as many of the newest as fit, noting how many were left out. */
function fitTranscript(entries: string[], budget: number): string {
  let total = entries.reduce((n, e) => n + e.length + 2, 0);
  if (total <= budget || entries.length < 2) return entries.join("\n\n");
  let from = 1;
  while (from < entries.length - 1 && total > budget) total -= entries[from++]!.length + 2;
  return [entries[0]!, `[… ${from - 1} entries left out …]`, ...entries.slice(from)].join("\n\n");
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
    `<transcript>\n${fitTranscript(transcriptEntries(messages), budgetChars)}\n</transcript>`,
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
