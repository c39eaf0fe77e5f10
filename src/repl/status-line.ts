import type { AgentEvent } from "../loop/events.ts";
import { formatCount } from "../text/format-count.ts";
import { plural } from "../text/plural.ts";
import { clipToWidth } from "../ui/cell-layout.ts";

/** What the running turn (or slash command) is doing, as the status line tells it. */
export type Activity =
  | { kind: "thinking" }
  | { kind: "writing" }
  | { kind: "tool"; name: string; progress?: string }
  | { kind: "retry"; until: number }
  | { kind: "command"; name: string };

export type Status = {
  startedAt: number;
  activity: Activity;
  /** Output tokens of the model calls that finished, as the API counted them. */
  tokens: number;
  /** Characters streamed by the call under way: its tokens are estimated from them until it ends. */
  streamed: number;
  /** The child agents running, by id: their name, model calls begun and output tokens so far. */
  children: ReadonlyMap<string, ChildStatus>;
};

export type ChildStatus = { agent: string; steps: number; tokens: number };

const FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
/** How often the spinner turns (and the status line is redrawn). */
export const STATUS_TICK_MS = 100;
// About four characters a token for English and code: close enough to show that tokens are flowing.
const CHARS_PER_TOKEN = 4;

export const startStatus = (now: number, activity: Activity = { kind: "thinking" }): Status => ({ startedAt: now, activity, tokens: 0, streamed: 0, children: new Map() });

/** The status after a turn's event. Pure: `now` is passed in. */
export function nextStatus(status: Status, event: AgentEvent, now: number): Status {
  switch (event.type) {
    case "text-delta":
      return { ...status, activity: { kind: "writing" }, streamed: status.streamed + event.text.length };
    case "reasoning-delta":
      return { ...status, activity: { kind: "thinking" }, streamed: status.streamed + event.text.length };
    case "retry":
      return { ...status, activity: { kind: "retry", until: now + event.delayMs }, streamed: 0 };
    case "tool-call":
      return { ...status, activity: { kind: "tool", name: event.name } };
    case "tool-progress":
      return status.activity.kind === "tool" ? { ...status, activity: { ...status.activity, progress: event.text } } : status;
    case "tool-result":
      return { ...status, activity: { kind: "thinking" } };
    case "message":
      if (event.message.role !== "assistant") return status;
      return { ...status, tokens: status.tokens + (event.message.usage?.outputTokens ?? 0), streamed: 0 };
    case "agent-start":
    case "agent-end":
    case "child":
      return { ...status, children: nextChildren(status.children, event) };
    default:
      return status;
  }
}

/** A child's step begins with its model call's first sign (a call sent); its tokens grow as its answers end. */
function nextChildren(children: ReadonlyMap<string, ChildStatus>, event: AgentEvent): ReadonlyMap<string, ChildStatus> {
  const next = new Map(children);
  if (event.type === "agent-start") next.set(event.agentId, { agent: event.agent, steps: 0, tokens: 0 });
  else if (event.type === "agent-end") next.delete(event.agentId);
  else if (event.type === "child") {
    const child = next.get(event.agentId);
    const inner = event.event;
    if (child && inner.type === "message" && inner.message.role === "assistant") next.set(event.agentId, { ...child, steps: child.steps + 1, tokens: child.tokens + (inner.message.usage?.outputTokens ?? 0) });
  }
  return next;
}

/** While nothing else runs, the background jobs still running: `2 background jobs running · /jobs`. */
export const jobsText = (running: number, columns: number): string => clipToWidth(`${plural(running, "background job")} running · /jobs`, columns - 1);

/** `⠹ running bash · 12 s · 1,204 tokens · 1 job · 1 queued · plan mode · Esc to interrupt`, clipped to `columns`. */
export function statusText(status: Status, now: number, opts: { columns: number; queued: number; jobs?: number; badge?: string }): string {
  const elapsed = Math.max(0, now - status.startedAt);
  const frame = FRAMES[Math.floor(elapsed / STATUS_TICK_MS) % FRAMES.length]!;
  const tokens = status.tokens + Math.ceil(status.streamed / CHARS_PER_TOKEN);
  const parts = [
    `${frame} ${activityText(status.activity, now)}`,
    `${Math.floor(elapsed / 1000)} s`,
    ...(status.activity.kind === "command" ? [] : [plural(tokens, "token").replace(/^\d+/, formatCount(tokens))]),
    ...[...status.children.values()].map((child) => `${child.agent} step ${child.steps + 1}, ${plural(child.tokens, "token").replace(/^\d+/, formatCount(child.tokens))}`),
    ...(opts.jobs ? [plural(opts.jobs, "job")] : []),
    ...(opts.queued ? [`${opts.queued} queued`] : []),
    ...(opts.badge ? [opts.badge] : []),
    status.activity.kind === "command" ? "Esc to cancel" : "Esc to interrupt",
  ];
  return clipToWidth(parts.join(" · "), opts.columns - 1);
}

function activityText(activity: Activity, now: number): string {
  switch (activity.kind) {
    case "retry":
      // Past the wait, the new attempt is out and the model is thinking again.
      return now < activity.until ? `retrying in ${Math.ceil((activity.until - now) / 1000)} s` : "thinking";
    case "tool":
      return `running ${activity.name}${activity.progress ? ` (${activity.progress})` : ""}`;
    case "command":
      return activity.name;
    default:
      return activity.kind;
  }
}
