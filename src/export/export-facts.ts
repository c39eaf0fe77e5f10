import { runStateText } from "../session/run-state.ts";
import { compactCount, costText, usageText } from "../pricing/usage-text.ts";
import { formatBytes } from "../text/format-bytes.ts";
import type { ExportedSession, ExportImage, ExportMessage, ExportResult } from "./export-schema.ts";

/** What both readers' formats say of a session, an answer and an image, in the same words. */

/** An ISO time as a person reads it: `2025-06-01 12:34 UTC`. */
export const when = (iso: string): string => iso.replace("T", " ").replace(/:\d\d(?:\.\d+)?Z$/, " UTC");

/** The rows an export opens with: which session, where, how it ended, what it cost. */
export function sessionFacts({ session, totals }: ExportedSession): [string, string][] {
  return [
    ["session", session.id],
    ["model", session.model],
    ["folder", session.cwd],
    ["started", when(session.createdAt)],
    ["last active", when(session.updatedAt)],
    ["state", runStateText(session.state)],
    ["tokens", usageText(totals.usage)],
    ["cost", costText(totals.costUsd)],
    ...(session.forkedFrom ? [["continues", `session ${session.forkedFrom.id} (its first ${session.forkedFrom.events} log lines)`] as [string, string]] : []),
    ...(session.importedFrom ? [["imported", `from session ${session.importedFrom.id}, exported ${when(session.importedFrom.exportedAt)}`] as [string, string]] : []),
  ];
}

/** An answer's byline: `gpt-5 · 1.2k tok · $0.0123`, and how it ended when it did not complete. */
export function answerFacts(m: Extract<ExportMessage, { role: "assistant" }>): string {
  const used = m.usage ? [`${compactCount(m.usage.inputTokens + m.usage.outputTokens)} tok`, costText(m.costUsd)] : [];
  const ended = m.incomplete ? [m.incomplete === "aborted" ? "aborted" : `cut short: ${m.incomplete}`] : [];
  return [m.model, ...used, ...ended].join(" · ");
}

/** An image named, where it is not shown: `image/png, 68 B`. */
export const imageLabel = (image: ExportImage): string => `${image.mediaType}, ${formatBytes(Math.floor((image.data.replace(/=+$/, "").length * 3) / 4))}`;

/** Each call's result, by call id: a reader sees a call and its outcome together. */
export function callResults(messages: readonly ExportMessage[]): Map<string, ExportResult> {
  const results = new Map<string, ExportResult>();
  for (const m of messages) if (m.role === "tool") for (const r of m.results) results.set(r.callId, r);
  return results;
}
