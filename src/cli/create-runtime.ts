import type { AgentEvent } from "../agent/events.ts";
import { textOf, type Message, type Usage } from "../agent/messages.ts";
import { run, type BuildRequest } from "../agent/run.ts";
import type { Authorize } from "../agent/run-tool-call.ts";
import type { Redactor } from "../agent/redact.ts";
import { composeRequest, type ComposedRequest } from "../context/compose-request.ts";
import { contextMeter, type ContextMeter } from "../context/context-meter.ts";
import { estimateNextRequest } from "../context/estimate.ts";
import { acceptSummary, buildSummaryRequestText } from "../context/summary.ts";
import { todoTrailer } from "../context/todo-trailer.ts";
import { learnWindow, thresholdInForce, windowFor } from "../context/windows.ts";
import { createAutosave } from "../store/autosave.ts";
import { recordCall, recordResponse } from "../store/call-log.ts";
import { costUsd } from "../store/cost.ts";
import { saveOrFork } from "../store/save-or-fork.ts";
import type { Session } from "../store/session-file.ts";
import type { SessionStore } from "../store/session-store.ts";
import { formatCount } from "../text/format-count.ts";
import { buildRequestBody, requestParams } from "../wire/build-request.ts";
import { activeStart } from "../wire/serialise-input.ts";
import type { ModelStream } from "../wire/model-stream.ts";
import type { SandboxLevel } from "../sandbox/sandbox-mode.ts";
import type { CommandSandbox } from "../tools/tool.ts";
import type { Config } from "./config.ts";
import type { Prompt } from "./load-prompt.ts";
import { loadById, resolveId } from "./open-session.ts";

/** One session at work: its history, prompt, tools, gate, model connection and store. */
export type Runtime = {
  session: Session;
  /** Rebuilt when a new session starts (/clear, /resume), so notes and skills added meanwhile count. */
  prompt: Prompt;
  readonly store: SessionStore;
  readonly config: Config;
  /** Appends the prompt and runs the agent until it answers, stops or is aborted. */
  runTurn(text: string, signal: AbortSignal): AsyncGenerator<AgentEvent>;
  /** Starts a new session; the current one stays saved. */
  reset(): Promise<void>;
  resume(idOrPrefix: string): Promise<void>;
  save(): Promise<void>;
  /** `/compact`: replaces the wire transcript with a model-written summary; unchanged on any failure. */
  compact(focus: string, signal: AbortSignal, onStart?: () => void): Promise<{ ok: boolean; message: string }>;
  /** A single model call without tools; null when it failed or said nothing. */
  ask(text: string, signal: AbortSignal): Promise<string | null>;
  contextUse(): ContextMeter & { tokens: number; threshold: number };
  /** The cost of this run's usage, for the `--json` result; undefined for unpriced models. */
  costOf(usage: Usage): number | undefined;
};

export type RuntimeOptions = {
  config: Config & { apiKey: string };
  cwd: string;
  session: Session;
  store: SessionStore;
  prompt: Prompt;
  reloadPrompt: () => Promise<Prompt>;
  authorize: Authorize;
  stream: ModelStream;
  warn: (line: string) => void;
  interruptSignal?: () => AbortSignal;
  sandbox?: (level: SandboxLevel) => Promise<CommandSandbox>;
  readDenied?: (tool: string, path: string, root: string) => boolean;
  secretGlobs?: readonly string[];
  writeRefused?: (tool: string, path: string, root: string) => string | undefined;
  /** The environment tool processes get (secrets removed), and what hides secret values in their output. */
  toolEnv: Readonly<Record<string, string>>;
  redactor: Redactor;
};

export function createRuntime(opts: RuntimeOptions): Runtime {
  const { config, cwd, store, stream, warn } = opts;
  let lastSentTokens = 0;
  const saveSession = async () => {
    const session = runtime.session;
    if (!session.messages.length) return;
    const { forkedFrom } = await saveOrFork(store, session);
    if (forkedFrom) warn(`${forkedFrom.message}; continuing as ${session.id}`);
  };
  const autosave = createAutosave(saveSession, { onError: (err) => warn(`could not save the session: ${(err as Error).message}`) });

  // A window learned from an overflow is kept in the session, for the model it was learned with.
  const currentWindow = () => {
    const { model, contextWindow } = runtime.session;
    return windowFor(model, { configured: config.contextWindow, learned: contextWindow?.model === model ? contextWindow.tokens : undefined });
  };
  const limits = () => {
    const window = currentWindow();
    return { window, threshold: thresholdInForce({ compactAt: config.compactAt, window }) };
  };

  /** A model-written summary of the history on the wire, or null when the call failed or was unusable. */
  const summarise = async (focus: string | undefined, signal: AbortSignal) =>
    acceptSummary((await runtime.ask(buildSummaryRequestText(runtime.session.messages, focus), signal)) ?? undefined);

  const requestBuilder = (signal: AbortSignal): BuildRequest => {
    // A summary that failed is not asked for again in the same turn (each attempt is a model call).
    let summaryFailed = false;
    return async (messages, { harder }) => {
      const session = runtime.session;
      // The loop retries an overflow without an error event; the failed call still gets its outcome.
      if (harder) recordResponse(session, { status: "error", error: "context_length_exceeded: retried once with a smaller request" });
      // An overflow proves the window is smaller than what was just sent; learn it once per overflow.
      if (harder && lastSentTokens > 0) {
        session.contextWindow = { model: session.model, tokens: learnWindow(currentWindow(), lastSentTokens) };
        lastSentTokens = 0;
        autosave.schedule();
      }
      const spec = {
        model: session.model,
        instructions: runtime.prompt.instructions,
        tools: runtime.prompt.toolSchemas,
        params: requestParams({ model: session.model, sessionId: session.id, reasoningEffort: config.reasoningEffort }),
        limits: limits(),
        harder,
        trailer: todoTrailer(session.notebook.todos),
      };
      let composed = composeRequest(messages, spec);
      if (composed.needsSummary && !summaryFailed) {
        const summarised = await summaryFallback(composed, signal, () => composeRequest(messages, spec));
        summaryFailed = summarised === composed;
        composed = summarised;
      }
      if (!harder) lastSentTokens = composed.tokens;
      recordCall(session, { ...spec, messageCount: messages.length });
      // Nothing goes on the wire that the file lacks: after a kill -9 it still holds every result the
      // model saw and this call's record for `shiro inspect`.
      autosave.schedule();
      await autosave.flush();
      return composed;
    };
  };

  /**
   * Even dropping old steps does not fit the window: continue from a summary, as `/compact` would.
   * If the summary fails, the over-large request goes anyway and the API's answer decides.
   */
  const summaryFallback = async (composed: ComposedRequest, signal: AbortSignal, recompose: () => ComposedRequest) => {
    const summary = await summarise(undefined, signal);
    if (!summary) {
      warn("the conversation does not fit the context window and summarising it failed; sending it anyway");
      return composed;
    }
    const messages = runtime.session.messages;
    // Counted before the summary goes in: every message on the wire until now is replaced by it.
    const onWire = messages.length - activeStart(messages);
    messages.push(summary);
    autosave.schedule();
    warn(`the conversation did not fit the context window; continuing from a ${formatCount(summary.summary.length)}-char summary`);
    const next = recompose();
    const before = composed.compaction ?? { messagesBefore: onWire, tokensBefore: composed.tokens };
    return { ...next, compaction: { messagesBefore: before.messagesBefore, messagesAfter: 0, tokensBefore: before.tokensBefore, tokensAfter: next.tokens } };
  };

  const runtime: Runtime = {
    session: opts.session,
    prompt: opts.prompt,
    store,
    config,
    async *runTurn(text, signal) {
      const session = runtime.session;
      // A pasted log or an @file may hold a secret too; the model and the session file get it redacted.
      const user: Message = { role: "user", text: opts.redactor.text(text) };
      session.messages.push(user);
      autosave.schedule();
      yield { type: "message", message: user };
      const events = run({
        messages: session.messages,
        tools: runtime.prompt.tools,
        stream,
        buildRequest: requestBuilder(signal),
        authorize: opts.authorize,
        root: cwd,
        maxSteps: config.maxSteps,
        signal,
        interruptSignal: opts.interruptSignal,
        sandbox: opts.sandbox,
        readDenied: opts.readDenied,
        secretGlobs: opts.secretGlobs,
        writeRefused: opts.writeRefused,
        beforeSideEffect: autosave.flush,
        env: opts.toolEnv,
        redactor: opts.redactor,
      });
      for await (const event of events) {
        if (event.type === "message") {
          if (event.message.role === "assistant") {
            const m = event.message;
            const status = m.incomplete === undefined ? "completed" : m.incomplete === "aborted" ? "aborted" : "incomplete";
            recordResponse(session, { status, ...(m.responseId ? { responseId: m.responseId } : {}), ...(m.usage ? { usage: m.usage } : {}) });
          }
          autosave.schedule();
        }
        if (event.type === "error") {
          recordResponse(session, { status: "error", error: event.error.message });
          autosave.schedule();
        }
        if (event.type === "end") {
          // Stopped mid-stream with nothing kept: the call's outcome is still "aborted", not unknown.
          if (event.status === "aborted" || event.status === "timeout") recordResponse(session, { status: "aborted" });
          autosave.schedule();
          await autosave.flush();
        }
        yield event;
      }
    },
    async reset() {
      await autosave.flush();
      runtime.session = store.create({ cwd, model: runtime.session.model });
      runtime.prompt = await opts.reloadPrompt();
    },
    async resume(idOrPrefix) {
      await autosave.flush();
      runtime.session = await loadById(store, await resolveId(store, idOrPrefix, warn), undefined, warn);
      runtime.prompt = await opts.reloadPrompt();
    },
    async save() {
      autosave.schedule();
      await autosave.flush();
    },
    async compact(focus, signal, onStart) {
      const session = runtime.session;
      if (!session.messages.some((m) => m.role === "user")) return { ok: false, message: "nothing to compact yet" };
      onStart?.();
      const summary = await summarise(focus || undefined, signal);
      if (!summary) return { ok: false, message: "the summary failed or was empty; the transcript is unchanged" };
      session.messages.push(summary);
      await runtime.save();
      return { ok: true, message: `compacted: the next request starts from a ${formatCount(summary.summary.length)}-char summary` };
    },
    async ask(text, signal) {
      const body = buildRequestBody({
        model: runtime.session.model,
        instructions: "You answer precisely and only with what is asked, without tools.",
        tools: [],
        messages: [{ role: "user", text }],
        sessionId: runtime.session.id,
        reasoningEffort: config.reasoningEffort,
      });
      for await (const event of stream(body, signal)) {
        if (event.type === "done") return textOf(event.message).trim() || null;
        // A summary or note cut short is not one to keep.
        if (event.type === "error" || event.type === "incomplete") return null;
      }
      return null;
    },
    contextUse() {
      const { threshold } = limits();
      const tokens = estimateNextRequest(runtime.session.messages, { model: runtime.session.model, instructionsChars: runtime.prompt.instructions.length });
      return { ...contextMeter(tokens, threshold), tokens, threshold };
    },
    costOf: (usage) => costUsd(runtime.session.model, usage),
  };
  return runtime;
}
