import type { AssistantMessage } from "../session/messages.ts";
import type { ResponseSummary } from "../session/message-schema.ts";
import { createSessionReducer, type SessionState } from "../session/reduce-session.ts";
import { runStateOf, type RunState } from "../session/run-state.ts";
import type { Message } from "../session/messages.ts";
import { answerOf, type SessionEvent } from "../session/session-event.ts";
import type { HookRun } from "../session/hook-run.ts";
import { costOf } from "../pricing/cost.ts";
import { callNews, type CallSide, type News } from "./call-news.ts";

/** One model call as the inspector lists it: what it was built from, what was new in it, how it ended. */
export type InspectedCall = {
  step: number;
  /** The turn it was made in; 0 for a call before any prompt. */
  turn: number;
  model: string;
  /** The first `messages` messages of the history at the time; the first `reused` of them the call before had too. */
  messages: number;
  reused: number;
  /** Those that were not in the call before, in order. */
  added: Message[];
  news: News[];
  response?: ResponseSummary;
  /** The answer as it joined the history (what streamed, for one cut short). */
  answer?: AssistantMessage;
  /** undefined: no usage on record, or a model without a price. */
  costUsd?: number;
  /** The hooks that ran for its answer: around the tool calls it asked for, and a Stop after it. */
  hooks: InspectedHook[];
};

export type InspectedTurn = {
  turn: number;
  text: string;
  at: string;
  /** What became of it when the next turn began (or as the log ends). */
  state: Exclude<RunState, "damaged">;
  /** When an undo took it out of the history. */
  undoneAt?: string;
  /** Brought in by `shiro import`: its calls were made by another session, and are not in this log. */
  imported?: true;
  /** Its prompt came in plan mode: its calls offered only the tools that read. */
  plan?: true;
  calls: InspectedCall[];
  /** The hooks that ran for it, in order (a call's with the tool's name). */
  hooks: InspectedHook[];
  /** The child agents its `task` calls started, in the order they ended. */
  children: InspectedChild[];
};

/** A child agent a call started: its session (a log of its own), its agent, what it was for. */
export type InspectedChild = { callId: string; step: number; sessionId: string; agent: string; description: string };

export type InspectedHook = HookRun & { tool?: string };

export type InspectedLog = { turns: InspectedTurn[]; calls: InspectedCall[]; state: SessionState };

/** What a `task` call said its child was for. */
function descriptionOf(args: string | undefined): string {
  try {
    const description = (JSON.parse(args ?? "") as { description?: unknown }).description;
    return typeof description === "string" ? description : "";
  } catch {
    return "";
  }
}

/**
 * A log's events, turn by turn, folded again with the session's own reducer, so each turn's state is
 * what `shiro sessions` would have said when it ended, and undone turns stay listed, with their calls.
 * The events are those the store read: a damaged log's lines before its bad one.
 */
export function logTurns(events: readonly SessionEvent[]): InspectedLog {
  const reducer = createSessionReducer();
  const turns: InspectedTurn[] = [];
  const calls: InspectedCall[] = [];
  const toolNames = new Map<string, string>();
  // Which model call asked for each tool call: its hooks are that call's.
  const askedBy = new Map<string, InspectedCall>();
  const denied = new Set<string>();
  const argsOf = new Map<string, string>();
  let before: CallSide | undefined;
  // The shortest the history has been since the call before: an undo cuts it back.
  let cut = Infinity;
  // The instruction files that joined since the call before: news of the next call.
  let joined: string[] = [];
  // The turn under way: listed once it ends, with the state it ended in.
  let current: Omit<InspectedTurn, "state"> | undefined;
  // SessionStart and UserPromptSubmit run before their turn's prompt is logged: they belong to it.
  let early: InspectedHook[] = [];
  const close = () => {
    if (current) turns.push({ ...current, state: runStateOf(reducer.state!) });
    current = undefined;
  };
  for (const event of events) {
    if (event.type === "user" || event.type === "undo") close();
    const s = reducer.apply(event);
    switch (event.type) {
      case "user":
        current = { turn: s.turnCount, text: event.text, at: event.at, calls: [], hooks: early, children: [], ...(s.mode === "plan" ? { plan: true as const } : {}) };
        early = [];
        break;
      case "hook": {
        const tool = event.callId !== undefined ? toolNames.get(event.callId) : undefined;
        const run: InspectedHook = tool ? { ...event, tool } : event;
        if (!current || event.event === "SessionStart" || event.event === "UserPromptSubmit") early.push(run);
        else current.hooks.push(run);
        const call = event.callId !== undefined ? askedBy.get(event.callId) : event.event === "Stop" ? current?.calls.at(-1) : undefined;
        call?.hooks.push(run);
        break;
      }
      case "import":
        turns.push(...importedTurns(s));
        break;
      case "undo":
        for (const t of turns) if (t.turn >= event.turn && t.undoneAt === undefined) t.undoneAt = event.at;
        cut = Math.min(cut, s.messages.length);
        break;
      case "call": {
        const reused = Math.min(before?.messages ?? 0, cut, event.messages);
        const added = s.messages.slice(reused, event.messages);
        const snapshot = s.callLog.snapshots[event.prompt]!;
        const now = { model: event.model, messages: event.messages, prompt: event.prompt, snapshot, params: event.params, trailer: event.trailer };
        // Every call is listed: one before any prompt (no log shiro writes has one) gets a turn 0.
        current ??= { turn: 0, text: "", at: event.at, calls: [], hooks: [], children: [] };
        const call: InspectedCall = {
          step: event.step,
          turn: current.turn,
          model: event.model,
          messages: event.messages,
          reused,
          added,
          news: callNews({ before, now, added, harder: event.harder === true, toolNames, denied, joined }),
          hooks: [],
        };
        calls.push(call);
        current.calls.push(call);
        before = now;
        cut = Infinity;
        joined = [];
        break;
      }
      case "response": {
        const call = calls[event.step - 1]!;
        call.response = s.callLog.calls[event.step - 1]!.response;
        const answer = answerOf(event);
        if (answer) call.answer = answer;
        for (const part of answer?.parts ?? []) {
          if (part.type !== "tool-call") continue;
          toolNames.set(part.callId, part.name);
          askedBy.set(part.callId, call);
          argsOf.set(part.callId, part.arguments);
        }
        const usage = call.response?.usage;
        const cost = usage ? costOf(call.model)(usage) : undefined;
        if (cost !== undefined) call.costUsd = cost;
        break;
      }
      case "instructions":
        joined.push(event.path);
        break;
      case "result":
        if (event.denied) denied.add(event.callId);
        if (event.child && current) current.children.push({ callId: event.callId, step: askedBy.get(event.callId)?.step ?? 0, ...event.child, description: descriptionOf(argsOf.get(event.callId)) });
        break;
    }
  }
  // A prompt its hook blocked never became a turn: its runs are shown with the turn before.
  (current ?? turns.at(-1))?.hooks.push(...early);
  close();
  return { turns, calls, state: reducer.state! };
}

/** An import's turns, each in the state its own messages ended it in (no call of this log made them). */
function importedTurns(s: SessionState): InspectedTurn[] {
  const noCalls = { calls: [], snapshots: {} };
  return s.turns.map((t, i) => {
    const messages: Message[] = s.messages.slice(0, s.turns[i + 1]?.start ?? s.messages.length);
    return { turn: t.turn, text: t.text, at: t.at, state: runStateOf({ messages, callLog: noCalls }), calls: [], hooks: [], children: [], imported: true };
  });
}
