import { RUN_TIMEOUT, type AgentEvent, type EndStatus } from "./events.ts";
import { addUsage, emptyUsage, textOf, toolCallsOf, type AssistantMessage, type Message, type Usage } from "../session/messages.ts";
import type { ModelStream, RequestBody } from "../wire/model-stream.ts";
import type { ModelError } from "../wire/model-error.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import type { Commit } from "../session/turn-fact.ts";
import type { ToolHooks } from "../hooks/create-hooks.ts";
import { runCalls } from "./run-calls.ts";
import type { Authorize } from "./run-tool-call.ts";

/** What a request's builder says it compacted to fit: the loop tells it once, as a `compacted` event. */
export type Compaction = Omit<Extract<AgentEvent, { type: "compacted" }>, "type">;

/** Builds the next request from the history; `harder` asks for a smaller one after a context overflow. */
export type BuildRequest = (
  messages: readonly Message[],
  opts: { harder: boolean },
) => { body: RequestBody; compaction?: Compaction } | Promise<{ body: RequestBody; compaction?: Compaction }>;

export type RunOptions = {
  /** The history, ending with the new user message. It grows as the run commits its facts, never otherwise. */
  messages: readonly Message[];
  /** Records each durable fact (an answer, a verdict, a tool's start and result) before the run goes on. */
  commit: Commit;
  tools: readonly AnyTool[];
  stream: ModelStream;
  buildRequest: BuildRequest;
  authorize: Authorize;
  root: string;
  maxSteps: number;
  /** True once what the run has used so far reached its cost limit (`--max-cost`): no further call is made. */
  budgetSpent?: (usage: Usage) => boolean;
  signal: AbortSignal;
  /** What every tool call runs with (the runtime decides it). */
  host: ToolHost;
  /** The person's hooks around each call, and the Stop hooks that may send the model back to work. */
  hooks?: ToolHooks;
  /** Settles when a call that may write the project may run (run-tool-call.ts); read-only calls do not wait. */
  beforeWrite?: () => Promise<void>;
  /** Told the paths each call that ran was about (run-tool-call.ts). */
  touched?: (paths: readonly string[]) => void;
  /**
   * Takes out of the prompt a tool whose schema the API refused (an MCP server's), saying so in a line;
   * undefined when it did not. The request is then sent again without it: one bad tool never fails every request.
   */
  dropRejectedTool?: (error: ModelError) => string | undefined;
};

/**
 * The agent loop: call the model, run the tool calls it asks for, commit the results, and call it
 * again until it answers without a call or `maxSteps` model calls were made. It never throws for a
 * model or tool failure: those end as events. It never changes the history itself: what it learns it
 * commits, and the runtime's log makes the history grow.
 */
export async function* run(opts: RunOptions): AsyncGenerator<AgentEvent> {
  const { messages, signal } = opts;
  let usage: Usage = emptyUsage();
  let steps = 0;
  let denials = 0;
  // The one harder retry a context overflow earns; a step that then succeeds earns the next one.
  let overflowRetried = false;
  let compactionTold = false;
  // Told to Stop hooks once one has sent the model back, so a script can let it stop the second time.
  let stopHookActive = false;
  const end = (status: EndStatus): AgentEvent => ({ type: "end", status, steps, usage, denials });
  const stopped = () => end(signal.reason === RUN_TIMEOUT ? "timeout" : "aborted");

  while (true) {
    if (signal.aborted) return yield stopped();
    if (opts.budgetSpent?.(usage)) return yield end("max-cost");
    // The injected parts are held to the loop's contract too: a throw becomes the run's error, never the caller's.
    let built: Awaited<ReturnType<BuildRequest>>;
    try {
      built = await opts.buildRequest(messages, { harder: overflowRetried });
    } catch (err) {
      yield { type: "error", error: { message: `could not build the request: ${(err as Error)?.message ?? String(err)}`, retryable: false } };
      return yield end("error");
    }
    const { body, compaction } = built;
    if (compaction && !compactionTold) {
      compactionTold = true;
      yield { type: "compacted", ...compaction };
      const after = compaction.messagesAfter === 0 ? "replaced by a summary" : `pruned to ${compaction.messagesAfter} on the wire`;
      yield { type: "notice", level: "info", text: `context compacted: ${compaction.messagesBefore} messages ${after}` };
    }

    steps++;
    let reply: AssistantMessage | undefined;
    let cutShort: { message: AssistantMessage; reason: string } | undefined;
    let failure: { error: ModelError; partial?: AssistantMessage } | undefined;
    try {
      for await (const event of opts.stream(body, signal)) {
        if (event.type === "text-delta" || event.type === "reasoning-delta" || event.type === "retry") yield event;
        else if (event.type === "done") reply = event.message;
        else if (event.type === "incomplete") cutShort = event;
        else failure = { error: event.error, partial: event.partial };
      }
    } catch (err) {
      failure ??= { error: { message: `the model stream failed: ${(err as Error)?.message ?? String(err)}`, retryable: false } };
    }

    if (cutShort) {
      // The API stopped the answer (output limit, content filter): keep what streamed, do not retry.
      usage = addUsage(usage, cutShort.message.usage);
      const kept = keepText(cutShort.message, cutShort.reason);
      opts.commit({ type: "answer", status: "incomplete", ...(kept ? { message: kept } : {}), error: cutShort.reason, ...(cutShort.message.usage ? { usage: cutShort.message.usage } : {}) });
      if (kept) yield { type: "message", message: kept };
      yield { type: "error", error: { message: incompleteLine(cutShort.reason, kept !== undefined), code: cutShort.reason, retryable: false } };
      return yield end("incomplete");
    }
    if (!reply) {
      if (signal.aborted) {
        const kept = keepText(failure?.partial, "aborted");
        opts.commit({ type: "answer", status: "aborted", ...(kept ? { message: kept } : {}) });
        if (kept) yield { type: "message", message: kept };
        return yield stopped();
      }
      const error = failure?.error ?? { message: "the model stream ended without a response", retryable: true };
      if (error.code === "context_length_exceeded" && !overflowRetried) {
        opts.commit({ type: "answer", status: "error", error: "context_length_exceeded: retried once with a smaller request" });
        overflowRetried = true;
        steps--;
        yield { type: "notice", level: "warn", text: "the request exceeded the model's context window; compacting harder and retrying once" };
        continue;
      }
      const dropped = opts.dropRejectedTool?.(error);
      if (dropped !== undefined) {
        opts.commit({ type: "answer", status: "error", error: `${error.message} (retried without the tool)` });
        steps--;
        yield { type: "notice", level: "warn", text: dropped };
        continue;
      }
      opts.commit({ type: "answer", status: "error", error: error.message });
      yield { type: "error", error };
      return yield end("error");
    }

    overflowRetried = false;
    usage = addUsage(usage, reply.usage);
    opts.commit({ type: "answer", status: "completed", message: reply });
    yield { type: "message", message: reply };

    const calls = toolCallsOf(reply);
    if (calls.length === 0) {
      if (textOf(reply).trim() !== "") {
        // A Stop hook's reason joined the history (the log's hook event): the next call answers it.
        const goOn = await opts.hooks?.stop(stopHookActive, signal);
        if (goOn === undefined) return yield end("done");
        stopHookActive = true;
        yield { type: "notice", level: "info", text: `a Stop hook asked the model to keep going: ${opts.host.redactor.text(goOn)}` };
        if (steps >= opts.maxSteps) return yield end("max-steps");
        continue;
      }
      // An empty answer is never a silent success: say what the response held instead.
      yield { type: "error", error: { message: emptyLine(reply), retryable: false } };
      return yield end("error");
    }

    denials += (yield* runCalls(calls, opts)).denials;

    if (signal.aborted) return yield stopped();
    if (steps >= opts.maxSteps) return yield end("max-steps");
  }
}

/** A response cut short keeps what the person already saw (its text); half-streamed calls are dropped. */
function keepText(partial: AssistantMessage | undefined, reason: string): AssistantMessage | undefined {
  const parts = partial?.parts.filter((p) => p.type === "text" && p.text !== "") ?? [];
  return partial && parts.length ? { ...partial, parts, incomplete: reason } : undefined;
}

const INCOMPLETE_WHY: Record<string, string> = {
  max_output_tokens: "max_output_tokens: it reached the output token limit",
  content_filter: "content_filter: the content filter stopped it",
};

const incompleteLine = (reason: string, kept: boolean) =>
  `the response stopped before it was complete (${INCOMPLETE_WHY[reason] ?? reason})${kept ? "; the text it wrote is kept" : ""}`;

/** What an answer with neither text nor a tool call held (reasoning, hosted tool items), in one line. */
function emptyLine(reply: AssistantMessage): string {
  const held = [...(reply.parts.some((p) => p.type === "reasoning") ? ["reasoning"] : []), ...(reply.otherItems ?? [])];
  const counts = new Map<string, number>();
  for (const item of held) counts.set(item, (counts.get(item) ?? 0) + 1);
  const list = [...counts].map(([item, n]) => (n > 1 ? `${item} ×${n}` : item)).join(", ");
  return `the model answered with no text and no tool call${list ? ` (the response held only: ${list})` : " (the response was empty)"}`;
}
