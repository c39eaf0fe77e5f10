import { textOf, toolCallsOf, type Message } from "../session/messages.ts";
import type { RecordedCall } from "../store/call-log.ts";
import { formatCount } from "../text/format-count.ts";
import { plural } from "../text/plural.ts";
import { bodyDiff, rangeText, type BodyDiff } from "./body-diff.ts";
import { newsText, type News } from "./call-news.ts";
import { CLIP_CHARS, clipStrings, hookJson, hookLine, outcomeJson, responseText } from "./inspect-rows.ts";
import type { InspectedCall, InspectedLog } from "./log-turns.ts";

type Body = Record<string, unknown>;

export type DiffSubject = {
  log: InspectedLog;
  call: InspectedCall;
  recorded: RecordedCall;
  /** The rebuilt bodies of the call and of the one before it (none before the first). */
  body: Body;
  before?: Body;
};

type AddedMessage = { message: number; role: Message["role"]; answerTo?: number; news?: News };

/**
 * The messages a call added, each with what it is: a prompt, results or a compaction (its news), or
 * the answer of an earlier call (by number). The news of a call lists its messages' in their order.
 */
function addedMessages(log: InspectedLog, call: InspectedCall): AddedMessage[] {
  const answerOf = new Map(log.calls.flatMap((c) => (c.answer ? [[c.answer, c.step] as const] : [])));
  const news = call.news.filter((n) => n.kind === "prompt" || n.kind === "results" || n.kind === "compaction");
  let next = 0;
  return call.added.map((m, i) => {
    const message = call.reused + i + 1;
    if (m.role !== "assistant") return { message, role: m.role, news: news[next++]! };
    const step = answerOf.get(m);
    return { message, role: m.role, ...(step !== undefined ? { answerTo: step } : {}) };
  });
}

function messageText(added: AddedMessage, m: Message): string {
  if (added.news) return newsText([added.news]);
  if (m.role !== "assistant") return m.role;
  const calls = toolCallsOf(m).map((p) => p.name);
  const what = calls.length ? calls.join(", ") : `${formatCount(textOf(m).length)} chars of text`;
  return `${added.answerTo !== undefined ? `the answer to call ${added.answerTo}` : "an answer"}: ${what}`;
}

const itemLine = (value: unknown, full: boolean) => JSON.stringify(full ? value : clipStrings(value));

function wireLines(diff: BodyDiff, against: string, full: boolean): string[] {
  const lines = diff.reused.map((r) => `  ${rangeText("item", r)}  as ${against}'s ${rangeText("item", { from: r.as, to: r.as + r.to - r.from })}`);
  lines.push(...diff.dropped.map((r) => `  − ${against}'s ${rangeText("item", r)}: not sent again`));
  lines.push(...diff.added.map((a) => `  + item ${a.item}  ${itemLine(a.value, full)}`));
  if (diff.same.length) lines.push(`  as ${against}: ${diff.same.join(", ")}`);
  if (diff.changed.length) lines.push(`  ${against === "nothing" ? "fields" : "changed"}: ${diff.changed.join(", ")}`);
  return lines;
}

/** `shiro inspect <session> <call> --diff`: what is new in a call against the one before, by reference — in the log, then on the wire. */
export function diffText(s: DiffSubject, opts: { full: boolean }): string {
  const { call, recorded } = s;
  const prev = call.step > 1 ? `call ${call.step - 1}` : undefined;
  const against = prev ?? "nothing";
  const clipped = opts.full ? "" : ` (strings clipped to ${CLIP_CHARS} chars; --full shows all)`;
  const head = `── call ${call.step} of ${s.log.calls.length} · turn ${call.turn} · ${call.model} · against ${prev ?? "nothing: the session's first call"}${clipped}`;
  const prompt = recorded.sameSnapshotAs ? `instructions+tools as call ${recorded.sameSnapshotAs}` : "its own instructions+tools";
  const added = addedMessages(s.log, call);
  const log = [
    `in the log: the first ${call.messages === 1 ? "message" : `${call.messages} messages`} of the history, ${prompt}`,
    ...(call.reused ? [`  ${rangeText("message", { from: 1, to: call.reused })}  as ${against}`] : []),
    ...call.news.filter((n) => n.kind === "cut").map((n) => `  ${newsText([n])}`),
    ...added.map((a) => `  + message ${a.message}  ${messageText(a, call.added[a.message - call.reused - 1]!)}`),
    ...call.news.filter((n) => !["prompt", "results", "compaction", "cut"].includes(n.kind)).map((n) => `  ${newsText([n])}`),
  ];
  const diff = bodyDiff(s.before, s.body);
  const wire = [`on the wire: ${plural(diff.items, "item")}`, ...wireLines(diff, against, opts.full)];
  return [head, "", ...log, ...wire, responseText(recorded.response), ...call.hooks.map(hookLine)].join("\n");
}

/** `--diff --json`: the same, the new items whole. */
export function diffJson(s: DiffSubject) {
  const { call } = s;
  const diff = bodyDiff(s.before, s.body);
  return {
    call: call.step,
    against: call.step > 1 ? call.step - 1 : null,
    turn: call.turn,
    model: call.model,
    log: { messages: call.messages, reused: call.reused, added: addedMessages(s.log, call), instructionsAs: s.recorded.sameSnapshotAs ?? null },
    new: call.news,
    input: { items: diff.items, reused: diff.reused, added: diff.added, dropped: diff.dropped },
    fields: { same: diff.same, changed: diff.changed },
    ...outcomeJson(call),
    hooks: call.hooks.map(hookJson),
  };
}
