import type { InputImage, Message, ToolResult } from "./messages.ts";
import { emptyNotebook, type Notebook } from "./notebook.ts";
import type { CallLog, CallRecord, ResponseSummary } from "./message-schema.ts";
import { answerOf, type EventOf, type SessionEvent } from "./session-event.ts";
import { historyFault } from "./history-fault.ts";
import type { AgentMode } from "./agent-mode.ts";
import { jobNote } from "./job-note.ts";

/** What a session's log adds up to: the history the loop sends, and everything a resume restores. */
export type SessionState = {
  id: string;
  createdAt: string;
  /** The newest `at` of any event. */
  updatedAt: string;
  cwd: string;
  model: string;
  /** The agent's mode as the log last set it: `default` until a `mode` line says otherwise. */
  mode: AgentMode;
  forkedFrom?: { id: string; events: number };
  /** A child agent's session: the session, and its call, that started it. */
  parent?: { id: string; callId: string };
  /** The export this session's history was imported from (`shiro import`). */
  importedFrom?: { id: string; exportedAt: string };
  messages: Message[];
  /** The images the log holds, by hash: each prompt and result that names one shares this one object. */
  images: Record<string, InputImage>;
  /** The turns still in the history (an undo removes them), oldest first: number, first message, prompt. */
  turns: LiveTurn[];
  /** Turns ever begun (user lines): the next turn's number is one more. */
  turnCount: number;
  notebook: Notebook;
  callLog: CallLog;
  contextWindow?: { model: string; tokens: number };
  /** The project instruction files of folders below `cwd` that joined the instructions, in the order they did. */
  instructionFiles: InstructionFile[];
  /** Each MCP server's latest `mcp` event: what it offered the model, or why it is gone. */
  mcpServers: Record<string, EventOf<"mcp">>;
  /** A model call has completed: a session without one is not listed (a run that failed at once). */
  answered: boolean;
  /** Tool calls of the newest answer still waiting for their result, and those of them that started. */
  pending: Set<string>;
  started: Set<string>;
  /** Lines applied. */
  events: number;
  /** The line of the newest undo, if any: what was measured of the history before it may be taken back. */
  undoneAt?: number;
};

/** An instruction file as it joined the session's instructions (an `instructions` event). */
export type InstructionFile = Omit<EventOf<"instructions">, "type" | "at">;

export type LiveTurn = { turn: number; start: number; text: string; at: string };

/** An impossible history, with the line that made it so (1-based). */
export class SessionLogError extends Error {
  override name = "SessionLogError";
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/**
 * Folds events into state, one at a time (the runtime applies each event it appends; a resume applies
 * the whole log). Deterministic — no I/O, no clock — but not pure: for speed it updates its one state
 * in place and hands that state out. Strict: an event that could not have happened — out of order,
 * about an unknown call, after the event that closed its call, referring to what the log lacks —
 * throws a SessionLogError naming its line, and the state is left as it was before that event.
 */
export function createSessionReducer(from?: SessionState) {
  let state: SessionState | undefined = from;
  const fail = (reason: string): never => {
    throw new SessionLogError((state?.events ?? 0) + 1, reason);
  };

  const stored = (hash: string): InputImage => (Object.hasOwn(state!.images, hash) ? state!.images[hash]! : fail(`image ${hash} is named, but no earlier line holds it`));

  function apply(event: SessionEvent): SessionState {
    if (!state) {
      if (event.type !== "session") fail(`the log must begin with its session line, not "${event.type}"`);
      const first = event as EventOf<"session">;
      state = {
        id: first.id,
        createdAt: first.at,
        updatedAt: first.at,
        cwd: first.cwd,
        model: first.model,
        mode: "default",
        ...(first.forkedFrom ? { forkedFrom: first.forkedFrom } : {}),
        ...(first.parent ? { parent: first.parent } : {}),
        messages: [],
        images: {},
        turns: [],
        turnCount: 0,
        notebook: emptyNotebook(),
        callLog: { calls: [], snapshots: {} },
        instructionFiles: [],
        mcpServers: {},
        answered: false,
        pending: new Set(),
        started: new Set(),
        events: 1,
      };
      return state;
    }
    const s = state;
    switch (event.type) {
      case "session":
        return fail("a second session line");
      case "user": {
        // Resolved first: a prompt naming an image the log lacks changes nothing.
        const images = event.images?.map(stored);
        closeTurn(s);
        s.turnCount++;
        s.turns.push({ turn: s.turnCount, start: s.messages.length, text: event.text, at: event.at });
        s.messages.push(images ? { role: "user", text: event.text, images } : { role: "user", text: event.text });
        break;
      }
      case "image":
        s.images[event.hash] ??= { mediaType: event.mediaType, data: event.data };
        break;
      case "import":
        importHistory(s, event, fail);
        break;
      case "undo": {
        const from = s.turns.findIndex((t) => t.turn === event.turn);
        if (from < 0) fail(`an undo of turn ${event.turn}, which is not in the history`);
        const start = s.turns[from]!.start;
        // A call built from what is now undone keeps the history it was sent, for inspect.
        for (const call of s.callLog.calls) if (call.messageCount > start && !call.history) call.history = s.messages.slice(0, call.messageCount);
        s.messages.length = start;
        s.turns.length = from;
        s.undoneAt = s.events + 1;
        closeTurn(s);
        break;
      }
      case "prompt":
        s.callLog.snapshots[event.key] ??= { instructions: event.instructions, tools: event.tools };
        break;
      case "call": {
        const last = s.callLog.calls.at(-1);
        if (event.step !== s.callLog.calls.length + 1) fail(`call ${event.step} out of order (the next is ${s.callLog.calls.length + 1})`);
        if (last && !last.response) fail(`call ${event.step} while call ${event.step - 1} has no response`);
        if (event.messages > s.messages.length) fail(`call ${event.step} is built from ${event.messages} messages, but the log holds ${s.messages.length}`);
        if (!Object.hasOwn(s.callLog.snapshots, event.prompt)) fail(`call ${event.step} refers to prompt ${event.prompt}, which no earlier line defines`);
        // Fields set one by one rather than spread: a resume folds ten thousand of these in a cold process.
        const record: CallRecord = { model: event.model, params: event.params, messageCount: event.messages, snapshot: event.prompt };
        if (event.harder) record.harder = true;
        if (event.limits) record.limits = event.limits;
        if (event.trailer !== undefined) record.trailer = event.trailer;
        s.callLog.calls.push(record);
        break;
      }
      case "response": {
        const call = s.callLog.calls[event.step - 1];
        if (!call || event.step !== s.callLog.calls.length) fail(`a response for call ${event.step}, which is not the call in flight`);
        if (call!.response) fail(`a second response for call ${event.step}`);
        if (event.message && event.message.role !== "assistant") fail(`the response to call ${event.step} holds a ${event.message.role} message`);
        const answer = answerOf(event);
        const usage = event.usage ?? answer?.usage;
        const response: ResponseSummary = { status: event.status };
        if (answer?.responseId) response.responseId = answer.responseId;
        if (usage) response.usage = usage;
        if (event.error !== undefined) response.error = event.error;
        call!.response = response;
        if (answer) {
          closeTurn(s);
          s.messages.push(answer);
          for (const part of answer.parts) if (part.type === "tool-call") s.pending.add(part.callId);
        }
        if (event.status === "completed") s.answered = true;
        break;
      }
      case "verdict":
        if (!s.pending.has(event.callId)) fail(`a verdict on ${event.callId}, which is no call waiting to run`);
        break;
      case "tool":
        if (!s.pending.has(event.callId)) fail(`tool ${event.callId} started, but it is no call waiting to run`);
        if (s.started.has(event.callId)) fail(`tool ${event.callId} started twice`);
        s.started.add(event.callId);
        break;
      case "result": {
        if (!s.pending.has(event.callId)) fail(`a result for ${event.callId}, which is no call waiting for one`);
        const result: ToolResult = { callId: event.callId, output: event.output };
        if (event.isError) result.isError = true;
        if (event.images) result.images = event.images.map((image) => (typeof image === "string" ? stored(image) : image));
        if (event.child) result.child = event.child;
        s.pending.delete(event.callId);
        const last = s.messages.at(-1);
        if (last?.role === "tool") last.results.push(result);
        else s.messages.push({ role: "tool", results: [result] });
        break;
      }
      case "compaction":
        closeTurn(s);
        s.messages.push({ role: "compaction", summary: event.summary });
        break;
      case "todos":
        s.notebook = { todos: event.todos };
        break;
      case "model":
        s.model = event.model;
        break;
      case "mode":
        s.mode = event.mode;
        break;
      case "hook":
        // A hook about a call runs while that call waits; its feedback is the person's program speaking, as a user.
        if (event.callId !== undefined && !s.pending.has(event.callId)) fail(`a hook run for ${event.callId}, which is no call waiting`);
        if (event.feedback !== undefined) s.messages.push({ role: "user", text: event.feedback });
        break;
      case "job":
        // Told between requests, never between a call and its result.
        if (s.pending.size) fail(`a job note while ${[...s.pending].join(", ")} wait for results`);
        s.messages.push({ role: "user", text: jobNote(event) });
        break;
      case "window":
        s.contextWindow = { model: event.model, tokens: event.tokens };
        break;
      case "mcp":
        s.mcpServers[event.server] = event;
        break;
      case "instructions": {
        if (s.instructionFiles.some((f) => f.path === event.path)) fail(`instructions from ${event.path} a second time`);
        const { type: _, at: __, ...file } = event;
        s.instructionFiles.push(file);
        break;
      }
    }
    if ("at" in event) s.updatedAt = event.at;
    s.events++;
    return s;
  }

  return {
    apply,
    get state(): SessionState | undefined {
      return state;
    },
  };
}

/** A history imported whole: only into a session with none yet, coherent, its turns starting at prompts in order. */
function importHistory(s: SessionState, event: EventOf<"import">, fail: (reason: string) => never) {
  if (s.messages.length || s.callLog.calls.length || s.importedFrom) fail("an import into a session that already has a history");
  const fault = historyFault(event.messages);
  if (fault) fail(`the imported history is impossible: ${fault}`);
  let after = -1;
  for (const { start } of event.turns) {
    if (start <= after || event.messages[start]?.role !== "user") fail(`an imported turn starts at message ${start + 1}, which is no prompt after the turn before`);
    after = start;
  }
  s.importedFrom = event.from;
  for (const m of event.messages) s.messages.push(m); // not spread: a long history would overflow the call's arguments
  for (const { start, at } of event.turns) {
    const prompt = event.messages[start] as Extract<Message, { role: "user" }>;
    s.turns.push({ turn: ++s.turnCount, start, text: prompt.text, at });
  }
  // An imported answer is an answer: the session is listed and continued like any answered one.
  if (event.messages.some((m) => m.role === "assistant")) s.answered = true;
}

/** Calls still waiting when the history moves on never get a result (the wire reports them as interrupted). */
function closeTurn(s: SessionState) {
  // Nearly always empty already: a resume folds tens of thousands of events, and clearing costs even then.
  if (s.pending.size) s.pending.clear();
  if (s.started.size) s.started.clear();
}

export type SessionReducer = ReturnType<typeof createSessionReducer>;

/** A reducer that has applied a whole log, to go on from. Throws SessionLogError for an impossible history, or when there is no line at all. */
export function reducerOf(events: Iterable<SessionEvent>): SessionReducer & { state: SessionState } {
  const reducer = createSessionReducer();
  for (const event of events) reducer.apply(event);
  if (!reducer.state) throw new SessionLogError(1, "the log is empty");
  return reducer as SessionReducer & { state: SessionState };
}

/**
 * A reducer that has applied the longest sound beginning of a log — after `from`, the state of the
 * lines before these (a snapshot's) — : it stops before the first event that could not have
 * happened, and says which line that is. Throws only when there is no line at all.
 */
export function reducerOfPrefix(events: readonly SessionEvent[], from?: SessionState): { reducer: SessionReducer & { state: SessionState }; damaged?: SessionLogError } {
  const reducer = createSessionReducer(from);
  let damaged: SessionLogError | undefined;
  for (const event of events)
    try {
      reducer.apply(event);
    } catch (err) {
      if (!(err instanceof SessionLogError)) throw err;
      damaged = err;
      break;
    }
  if (!reducer.state) throw damaged ?? new SessionLogError(1, "the log is empty");
  return { reducer: reducer as SessionReducer & { state: SessionState }, ...(damaged ? { damaged } : {}) };
}

/** The state of a whole log (see `reducerOf`). */
export const reduceSession = (events: Iterable<SessionEvent>): SessionState => reducerOf(events).state;
