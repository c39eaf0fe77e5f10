import pc from "picocolors";
import { textOf, toolCallsOf, type Message } from "../session/messages.ts";
import { plural } from "../text/plural.ts";
import { clipToWidth } from "./cell-layout.ts";
import { callSubject } from "./tool-line.ts";

/** The newest exchanges shown when a session goes on, and how much of each answer. */
const EXCHANGES = 3;
const ANSWER_LINES = 6;

type Exchange = { prompt: string; tools: { name: string; subject: string; failed?: boolean }[]; answer: string; incomplete?: string };

/**
 * Where a continued session left off (`-c`, `-r`, `/resume`): its last few exchanges, each the
 * person's prompt, one line per tool the model ran, and the answer's first lines — never more than
 * `rows` lines, none wider than `columns`. The newest exchange is kept first; older ones go when
 * there is no room. Empty for a session with no prompt yet.
 */
export function renderRecap(messages: readonly Message[], opts: { columns: number; rows: number; color?: boolean }): string {
  const c = pc.createColors(opts.color ?? false);
  const width = Math.max(10, opts.columns - 1);
  const exchanges = exchangesOf(messages);
  const blocks: string[][] = [];
  let used = 0;
  for (const ex of exchanges.slice(-EXCHANGES).reverse()) {
    const lines = [
      `${c.bold(c.magenta("›"))} ${firstLine(ex.prompt)}`,
      ...ex.tools.map((t) => `  ${c.cyan("●")} ${c.bold(t.name)}${t.subject ? ` ${c.dim(t.subject)}` : ""}${t.failed ? ` ${c.red("✗")}` : ""}`),
      ...answerLines(ex, c),
    ].map((line) => clipToWidth(line, width));
    const room = opts.rows - used - 1;
    if (room <= 0) break;
    if (lines.length > room && blocks.length > 0) break;
    blocks.unshift(lines.slice(0, room));
    used += Math.min(lines.length, room);
  }
  if (blocks.length === 0) return "";
  const earlier = exchanges.length - blocks.length;
  const head = c.dim(earlier > 0 ? `· where you left off (${plural(earlier, "earlier exchange")} not shown):` : "· where you left off:");
  return [head, ...blocks.flat()].join("\n");
}

function exchangesOf(messages: readonly Message[]): Exchange[] {
  const exchanges: Exchange[] = [];
  const failed = new Set<string>();
  for (const m of messages) if (m.role === "tool") for (const r of m.results) if (r.isError) failed.add(r.callId);
  for (const m of messages) {
    if (m.role === "user") exchanges.push({ prompt: withoutAttachments(m.text), tools: [], answer: "" });
    const ex = exchanges.at(-1);
    if (!ex || m.role !== "assistant") continue;
    for (const call of toolCallsOf(m)) ex.tools.push({ name: call.name, subject: callSubject(call.arguments), ...(failed.has(call.callId) ? { failed: true } : {}) });
    const text = textOf(m).trim();
    if (text) ex.answer = text;
    if (m.incomplete) ex.incomplete = m.incomplete;
  }
  return exchanges;
}

function answerLines(ex: Exchange, c: ReturnType<typeof pc.createColors>): string[] {
  const lines = ex.answer ? ex.answer.split("\n") : [];
  const shown = lines.slice(0, ANSWER_LINES);
  if (lines.length > ANSWER_LINES) shown.push(c.dim(`… (+${plural(lines.length - ANSWER_LINES, "line")})`));
  if (ex.incomplete) shown.push(c.yellow(`! ${ex.incomplete === "aborted" ? "aborted" : `cut short: ${ex.incomplete}`}`));
  if (!ex.answer && !ex.incomplete) shown.push(c.dim("(no answer)"));
  return shown;
}

/** What the person typed: an attached file's content (`@path`) follows it and is not theirs to see again. */
const withoutAttachments = (text: string) => text.split(/\n\n<file path="/)[0]!;

function firstLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines.length > 1 ? `${lines[0]} (+${plural(lines.length - 1, "line")})` : lines[0]!;
}
