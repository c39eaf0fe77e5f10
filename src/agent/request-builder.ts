import type { BuildRequest } from "../loop/run.ts";
import { composeRequest, surelyNeedsSummary, type ComposedRequest } from "../context/compose-request.ts";
import { learnWindow, thresholdInForce, windowFor } from "../context/windows.ts";
import { todoTrailer } from "../context/todo-trailer.ts";
import type { WireLedger } from "../context/wire-ledger.ts";
import type { CompactionMessage } from "../session/messages.ts";
import { snapshotKey } from "../store/call-log.ts";
import type { LearnedWindows } from "../store/learned-windows.ts";
import type { LiveSession } from "../store/live-session.ts";
import { formatCount } from "../text/format-count.ts";
import { requestParams, type TextFormat } from "../wire/build-request.ts";
import type { ReasoningEffort } from "../wire/reasoning-effort.ts";
import { activeStart } from "../wire/serialise-input.ts";
import type { Prompt } from "./load-prompt.ts";
import { promptForRequest } from "./prompt-for-request.ts";
import type { JobRegistry } from "../process/job-registry.ts";

export type RequestDeps = {
  session: () => LiveSession;
  prompt: () => Prompt;
  config: { compactAt?: number; contextWindow?: number; reasoningEffort?: ReasoningEffort; textFormat?: TextFormat };
  /** A model-written summary of the history on the wire, or null when it failed. */
  summarise: (signal: AbortSignal) => Promise<CompactionMessage | null>;
  warn: (line: string) => void;
  /** What was measured for the previous request, reused for the next. */
  ledger: WireLedger;
  /** The ledger has just been brought up to the history of a request. */
  measured?: () => void;
  /** Windows overflows taught at this endpoint, in earlier runs too; absent, only the session's own. */
  windows?: LearnedWindows;
  /** The agent's background jobs: one that ended by itself, unread, is told in the next request. */
  jobs?: JobRegistry;
};

/**
 * The window in force: the smallest learned from an overflow of this model — in this session, or at
 * this endpoint before — wins over the configured or known one.
 */
export function limitsOf(session: LiveSession, configured: { compactAt?: number; contextWindow?: number }, windows?: LearnedWindows) {
  const { model, contextWindow } = session.state;
  const taught = [contextWindow?.model === model ? contextWindow.tokens : undefined, windows?.get(model)].filter((t) => t !== undefined);
  const window = windowFor(model, { configured: configured.contextWindow, learned: taught.length ? Math.min(...taught) : undefined });
  return { window, threshold: thresholdInForce({ compactAt: configured.compactAt, window }) };
}

/**
 * Builds each request of a turn from the history and records it before it is sent: its prompt (once
 * per distinct content) and the call, so the log holds every request `shiro inspect` rebuilds and
 * nothing goes on the wire that the log lacks.
 */
export function createRequestBuilder(deps: RequestDeps) {
  let lastSentTokens = 0;
  // The prompt is the same object request after request: hashed once, not every step.
  let snapshot = { instructions: "", tools: [] as readonly unknown[], key: "" };
  const keyOf = (instructions: string, tools: readonly unknown[]) => {
    if (instructions !== snapshot.instructions || tools !== snapshot.tools) snapshot = { instructions, tools, key: snapshotKey(instructions, tools) };
    return snapshot.key;
  };
  /** `offers`: the turn sends only the tools it holds for (a saved command's allowed-tools), logged as sent. */
  return (signal: AbortSignal, offers?: (tool: string) => boolean): BuildRequest => {
    // A summary that failed is not asked for again in the same turn (each attempt is a model call).
    let summaryFailed = false;
    return async (messages, { harder }) => {
      const session = deps.session();
      const at = new Date().toISOString();
      // An overflow proves the window is smaller than what was just sent; learn it once per overflow,
      // for this session and for the next run at this endpoint.
      if (harder && lastSentTokens > 0) {
        const tokens = learnWindow(limitsOf(session, deps.config, deps.windows).window, lastSentTokens);
        session.append({ type: "window", model: session.state.model, tokens });
        await deps.windows?.learn(session.state.model, tokens);
        lastSentTokens = 0;
      }
      tellEndedJobs(session, deps.jobs);
      const { model, id, notebook } = session.state;
      const prompt = deps.prompt();
      // A skill installed since the session began is told after the history: the cached prefix stays as it was.
      const current = promptForRequest(prompt, await prompt.currentSkills());
      const trailer = [todoTrailer(notebook.todos), current.skillsNote].filter((part) => part !== undefined).join("\n\n");
      const spec = {
        model,
        instructions: prompt.instructions,
        tools: offers ? current.tools.filter((tool) => offers(tool.name)) : current.tools,
        params: requestParams({ model, sessionId: id, reasoningEffort: deps.config.reasoningEffort, textFormat: deps.config.textFormat }),
        limits: limitsOf(session, deps.config, deps.windows),
        harder,
        trailer: trailer || undefined,
      };
      const compose = () => composeRequest(messages, spec, deps.ledger);
      // Over the window whatever is dropped (a long resume): the summary is asked for before any plan is made.
      const overflow = summaryFailed ? undefined : surelyNeedsSummary(messages, spec, deps.ledger);
      if (!summaryFailed) deps.measured?.();
      let composed = overflow ? undefined : compose();
      if (!composed || (composed.needsSummary && !summaryFailed)) {
        const summarised = await summaryFallback(signal, compose, overflow ?? composed?.compaction ?? { tokensBefore: composed!.tokens });
        summaryFailed = summarised === undefined;
        composed = summarised ?? composed ?? compose();
      }
      if (!harder) lastSentTokens = composed.tokens;
      const key = keyOf(spec.instructions, spec.tools);
      session.append(
        ...(Object.hasOwn(session.state.callLog.snapshots, key) ? [] : [{ type: "prompt" as const, key, instructions: spec.instructions, tools: [...spec.tools] }]),
        {
          type: "call",
          step: session.state.callLog.calls.length + 1,
          model,
          params: spec.params as Record<string, unknown>,
          messages: messages.length,
          prompt: key,
          ...(harder ? { harder: true as const } : {}),
          limits: spec.limits,
          ...(spec.trailer !== undefined ? { trailer: spec.trailer } : {}),
          at,
        },
      );
      return composed;
    };
  };

  /** Each job that ended by itself since the last request becomes a `job` event: in the history (a user message) before the request is composed. */
  function tellEndedJobs(session: LiveSession, jobs: JobRegistry | undefined) {
    for (const job of jobs?.untold() ?? []) {
      const how = job.end?.how;
      if (how === "exit" || how === "timeout") session.append({ type: "job", id: job.id, command: job.command, how, code: job.end!.code, at: new Date().toISOString() });
      jobs!.told(job.id);
    }
  }

  /**
   * Even dropping old steps does not fit the window: continue from a summary, as `/compact` would.
   * If the summary fails (undefined), the over-large request goes anyway and the API's answer decides.
   */
  async function summaryFallback(
    signal: AbortSignal,
    recompose: () => ComposedRequest,
    before: { messagesBefore?: number; tokensBefore: number },
  ): Promise<ComposedRequest | undefined> {
    const summary = await deps.summarise(signal);
    if (!summary) {
      deps.warn("the conversation does not fit the context window and summarising it failed; sending it anyway");
      return undefined;
    }
    const session = deps.session();
    const messages = session.state.messages;
    // Counted before the summary goes in: every message on the wire until now is replaced by it.
    const onWire = messages.length - activeStart(messages);
    session.append({ type: "compaction", summary: summary.summary, at: new Date().toISOString() });
    deps.warn(`the conversation did not fit the context window; continuing from a ${formatCount(summary.summary.length)}-char summary`);
    const next = recompose();
    return { ...next, compaction: { messagesBefore: before.messagesBefore ?? onWire, messagesAfter: 0, tokensBefore: before.tokensBefore, tokensAfter: next.tokens } };
  }
}
