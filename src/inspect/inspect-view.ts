import type { SessionEvent } from "../session/session-event.ts";
import { callsOf, type RecordedCall } from "../store/call-log.ts";
import { diffJson, diffText } from "./call-diff.ts";
import { callJson, callText } from "./call-view.ts";
import { logTurns } from "./log-turns.ts";
import { overviewJson, overviewText, type LogFacts } from "./overview.ts";
import { turnsJson, turnsText } from "./turns-view.ts";

export type InspectOptions = {
  /** 1-based, as the turn list numbers calls; without it the overview or the turn list. */
  call?: number;
  turns: boolean;
  diff: boolean;
  full: boolean;
  json: boolean;
  /** How the person named the session, for the hints printed. */
  prefix: string;
  columns: number;
  /** The real request builder, so a printed body is exactly what the loop transmitted. */
  rebuild: (call: RecordedCall) => object;
  /** The logs of the child agents the session started, by id, as they could be read. */
  children?: ReadonlyMap<string, readonly SessionEvent[]>;
};

/** A request the session cannot answer (a call it does not have, flags that do not go together): one line, said as is. */
export class InspectError extends Error {}

/** Flags that do not go together, said before the log is read. */
export function inspectFlagsError(opts: Pick<InspectOptions, "call" | "turns" | "diff" | "full">): string | undefined {
  if (opts.turns && opts.call !== undefined) return "--turns lists every call; give it or a call, not both";
  if (opts.diff && opts.call === undefined) return "--diff compares one call with the one before: shiro inspect <session> <call> --diff";
  if (opts.full && opts.call === undefined) return "--full shows one call's body whole: shiro inspect <session> <call> --full";
  return undefined;
}

/** `shiro inspect`: the overview, the turn list, one call's body or what is new in it — as text or JSON. */
export function inspectView(events: readonly SessionEvent[], facts: LogFacts, opts: InspectOptions): string {
  const flags = inspectFlagsError(opts);
  if (flags) throw new InspectError(flags);
  const log = logTurns(events);
  if (opts.call === undefined) {
    if (opts.turns) return opts.json ? JSON.stringify(turnsJson(log)) : turnsText(log, opts);
    const children = childLogs(opts.children);
    return opts.json ? JSON.stringify(overviewJson(log, facts, children)) : overviewText(log, facts, { ...opts, children });
  }
  const calls = callsOf(log.state);
  const recorded = calls[opts.call - 1];
  if (!recorded || !Number.isInteger(opts.call)) throw new InspectError(noCall(opts.call, calls.length, facts));
  if (!opts.diff) {
    const body = opts.rebuild(recorded);
    return opts.json ? callJson(body) : callText({ id: log.state.id, calls: calls.length }, { ...recorded, hooks: log.calls[opts.call - 1]!.hooks }, body, opts);
  }
  // In the order they were sent: the rebuild measures a history as it grows.
  const before = opts.call > 1 ? (opts.rebuild(calls[opts.call - 2]!) as Record<string, unknown>) : undefined;
  const subject = { log, call: log.calls[opts.call - 1]!, recorded, body: opts.rebuild(recorded) as Record<string, unknown>, ...(before ? { before } : {}) };
  return opts.json ? JSON.stringify(diffJson(subject)) : diffText(subject, opts);
}

const childLogs = (logs: InspectOptions["children"]) => new Map([...(logs ?? [])].map(([id, events]) => [id, logTurns(events)] as const));

function noCall(call: number, calls: number, facts: LogFacts): string {
  const has = calls === 0 ? "this session has no recorded model calls" : `no call ${call}: the session has ${calls === 1 ? "only call 1" : `calls 1–${calls}`}`;
  return facts.damaged ? `${has} (its log is read up to line ${facts.damaged.line - 1}: line ${facts.damaged.line} is damaged)` : has;
}
