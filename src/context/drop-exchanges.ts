import type { AssistantMessage, Message, ToolMessage } from "../session/messages.ts";
import { messageChars } from "./estimate.ts";
import { activeStart } from "../wire/serialise-input.ts";
import { formatCount } from "../text/format-count.ts";
import { describeCall, firstLine } from "./describe-call.ts";
import { plural } from "../text/plural.ts";

export type DropOptions = {
  model: string;
  /** Characters the wire payload must lose. */
  excessChars: number;
  /** The newest exchanges, never dropped. */
  keepRecent: number;
  /** Exchanges go in groups of this many, so consecutive requests share their prefix. */
  step: number;
};

export type DropResult = { messages: Message[]; droppedExchanges: number };

/** One response and the results of its calls: dropped together or not at all. */
type Exchange = { from: number; to: number };

const NOTE_HEAD = (n: number) =>
  `[shiro: ${plural(n, "earlier step")} left out of this request to fit the context window. ` +
  "Their effects on files and the system remain; do not repeat them unless needed. What they did:";

/** One line per call (and per answer) of a dropped exchange, with its outcome, from the original history. */
export function outcomeLines(assistant: AssistantMessage, tool: ToolMessage | undefined): string[] {
  const lines: string[] = [];
  for (const p of assistant.parts) {
    if (p.type === "text" && p.text.trim()) lines.push(`- said: "${firstLine(p.text, 100)}"`);
    if (p.type !== "tool-call") continue;
    const result = tool?.results.find((r) => r.callId === p.callId);
    const outcome = !result
      ? "interrupted, not re-run"
      : result.isError
        ? `error: ${firstLine(result.output, 100)}`
        : `ok (${formatCount(result.output.length)} chars)${result.output.trim() ? `: ${firstLine(result.output, 60)}` : ""}`;
    lines.push(`- ${describeCall(p.name, p.arguments)} → ${outcome}`);
  }
  return lines;
}

function exchangesOf(messages: readonly Message[], start: number): Exchange[] {
  const exchanges: Exchange[] = [];
  for (let i = start; i < messages.length; i++) {
    const role = messages[i]!.role;
    if (role === "assistant" && messages[i + 1]?.role === "tool") exchanges.push({ from: i, to: ++i });
    else if (role === "assistant" || role === "tool") exchanges.push({ from: i, to: i });
  }
  return exchanges;
}

const exchangeLines = (originals: readonly Message[], x: Exchange): string[] => {
  const first = originals[x.from]!;
  if (first.role !== "assistant") return [];
  const last = originals[x.to]!;
  return outcomeLines(first, last.role === "tool" ? last : undefined);
};

/**
 * Drops whole oldest exchanges until the payload has lost `excessChars`, leaving in each gap a
 * note that lists every dropped call with its outcome. User messages (the task first of all),
 * compaction markers and the newest `keepRecent` exchanges always stay. `originals` is the
 * unelided history at the same indices, so outcomes are told from real outputs.
 */
export function dropExchanges(messages: readonly Message[], originals: readonly Message[], opts: DropOptions): DropResult {
  const droppable = exchangesOf(messages, activeStart(messages)).slice(0, -opts.keepRecent || undefined);
  let count = 0;
  let removed = 0;
  while (count < droppable.length && removed < opts.excessChars) {
    const x = droppable[count++]!;
    for (let i = x.from; i <= x.to; i++) removed += messageChars(messages[i]!, opts.model);
    for (const line of exchangeLines(originals, x)) removed -= line.length + 1;
    if (count === 1 || droppable[count - 2]!.to !== x.from - 1) removed -= NOTE_HEAD(1).length + 80;
  }
  if (removed < opts.excessChars || count === 0) count = droppable.length;
  else count = Math.min(droppable.length, Math.ceil(count / opts.step) * opts.step);
  if (count === 0) return { messages: messages.slice(), droppedExchanges: 0 };

  const dropped = droppable.slice(0, count);
  const out: Message[] = [];
  let gap: string[] = [];
  let gapSteps = 0;
  const flush = () => {
    if (gapSteps) out.push({ role: "user", text: `${NOTE_HEAD(gapSteps)}\n${gap.join("\n")}]` });
    gap = [];
    gapSteps = 0;
  };
  let next = 0;
  for (let i = 0; i < messages.length; i++) {
    const x = dropped[next];
    if (x && i === x.from) {
      gap.push(...exchangeLines(originals, x));
      gapSteps++;
      next++;
      i = x.to;
      continue;
    }
    flush();
    out.push(messages[i]!);
  }
  flush();
  return { messages: out, droppedExchanges: count };
}
