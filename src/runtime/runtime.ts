import type { AgentEvent } from "../agent/events.ts";
import { emptyUsage, type Usage } from "../session/messages.ts";
import type { Todo } from "../session/notebook.ts";
import { run } from "../agent/run.ts";
import type { Authorize } from "../tools/authorize.ts";
import { contextMeter, type ContextMeter } from "../context/context-meter.ts";
import { estimateNextRequest } from "../context/estimate.ts";
import { createWireLedger } from "../context/wire-ledger.ts";
import { acceptSummary, buildSummaryRequestText } from "../context/summary.ts";
import { factEvent } from "../session/fact-event.ts";
import type { SessionState } from "../session/reduce-session.ts";
import { costUsd } from "../pricing/cost.ts";
import type { LearnedWindows } from "../store/learned-windows.ts";
import type { LiveSession } from "../store/live-session.ts";
import type { SessionStore } from "../store/session-store.ts";
import { formatCount } from "../text/format-count.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import type { TextFormat } from "../wire/build-request.ts";
import type { ReasoningEffort } from "../wire/reasoning-effort.ts";
import type { ModelStream } from "../wire/model-stream.ts";
import { withTools, type Prompt } from "./load-prompt.ts";
import type { SavedCommands } from "../commands/saved-commands.ts";
import type { Mcp } from "../mcp/open-mcp.ts";
import { rejectedToolName, type ModelError } from "../wire/model-error.ts";
import { measureKeeper } from "./measure-keeper.ts";
import { createRequestBuilder, limitsOf } from "./request-builder.ts";
import type { Checkpoints } from "../checkpoint/checkpoints.ts";
import type { Hooks } from "../hooks/create-hooks.ts";
import { turnHooks } from "./turn-hooks.ts";
import { askOnce } from "./ask-once.ts";
import type { HookRun } from "../session/hook-run.ts";
import type { CheckpointStore } from "../checkpoint/checkpoint-store.ts";
import { turnRows, type TurnRow } from "../checkpoint/undo-report.ts";
import { turnRecords, undoTurns, type UndoDone, type UndoRefused } from "../checkpoint/undo-turns.ts";

export type RuntimeConfig = {
  maxSteps: number;
  compactAt?: number;
  contextWindow?: number;
  reasoningEffort?: ReasoningEffort;
  textFormat?: TextFormat;
  /** A turn makes no model call once it has cost this much (USD); needs a priced model. */
  maxCostUsd?: number;
};

/** One session at work — its log, prompt, tools, gate and model connection — driven by both modes. */
export type Runtime = {
  /** The session's state: its log's events, reduced. Change it only through the methods below. */
  readonly session: SessionState;
  /** Rebuilt when a new session starts (/clear, /resume), so notes and skills added meanwhile count. */
  prompt: Prompt;
  readonly store: SessionStore;
  /** Logs the prompt and runs the agent until it answers, stops or is aborted. */
  runTurn(text: string, signal: AbortSignal): AsyncGenerator<AgentEvent>;
  /** Runs a saved command's `` !`cmd` `` in the checkpoint of the turn its prompt begins, so `undo` puts back what it wrote. */
  inNextTurn<T>(run: () => Promise<T>): Promise<T>;
  /** The saved commands (`.shiro/commands/`, `$SHIRO_HOME/commands/`). */
  readonly commands: SavedCommands;
  /** Starts a new session; the current one stays on disk. */
  reset(): Promise<void>;
  resume(idOrPrefix: string): Promise<void>;
  /** Logs the switch: the next request goes to `model`. */
  setModel(model: string): void;
  /** The models the endpoint offers (asked once, then remembered); throws a one-line Error when it cannot say. */
  models(): Promise<string[]>;
  setTodos(todos: Todo[]): void;
  /** Logs a hook's run (its reason and feedback redacted), so `shiro inspect` shows why a call was blocked. */
  logHook(run: Omit<HookRun, "at">): void;
  /** Shows a project's unapproved hooks and asks about them now (the REPL, as it starts). */
  readyHooks(): Promise<void>;
  /** `/compact`: the wire continues from a model-written summary; unchanged on any failure. */
  compact(focus: string, signal: AbortSignal, onStart?: () => void): Promise<{ ok: boolean; message: string }>;
  /** A single model call without tools; null when it failed or said nothing. */
  ask(text: string, signal: AbortSignal): Promise<string | null>;
  contextUse(): ContextMeter & { tokens: number; threshold: number };
  /** The cost of this run's usage, for the `--json` result; undefined for unpriced models. */
  costOf(usage: Usage): number | undefined;
  /** Puts back the files turn `turn` (the newest when absent) and every later one changed, and takes them out of the history. */
  undo(turn: number | undefined, force: boolean): Promise<UndoDone | UndoRefused>;
  /** The session's turns still in its history, with what each changed (for `/rewind`). */
  undoableTurns(): TurnRow[];
  /** The MCP servers of this run (`/mcp`), and the project's waiting for approval. */
  readonly mcp?: Mcp;
  /** Lets go of the session's log and closes the MCP servers (the process is done with them). */
  close(): Promise<void>;
};

export type RuntimeOptions = {
  config: RuntimeConfig;
  cwd: string;
  session: LiveSession;
  store: SessionStore;
  prompt: Prompt;
  reloadPrompt: () => Promise<Prompt>;
  /** Opens the session `idOrPrefix` names (for `/resume`); throws a one-line error. */
  open: (idOrPrefix: string) => Promise<LiveSession>;
  authorize: Authorize;
  stream: ModelStream;
  /** The context windows overflows taught at this endpoint (`$SHIRO_HOME/context-windows.json`). */
  windows?: LearnedWindows;
  /** `GET /models` at the endpoint. */
  listModels: () => Promise<string[]>;
  warn: (line: string) => void;
  /** What every tool call runs with: the sandbox, the read and write checks, the environment, the redactor. */
  host: ToolHost;
  /** Records each turn's file changes, so `undo` can put them back. */
  checkpoints?: Checkpoints;
  commands: SavedCommands;
  /** Where those records are, and where `undo --force` keeps what it overwrites. */
  undoStore?: { store: CheckpointStore; keptDir: string };
  /** The person's hooks (docs/hooks.md); none with --no-hooks. */
  hooks?: Hooks;
  /** The MCP servers, started in the background: their tools join the prompt's as they come. */
  mcp?: Mcp;
};

const now = () => new Date().toISOString();

export function createRuntime(opts: RuntimeOptions): Runtime {
  const { config, cwd, store, stream, warn } = opts;
  let live = opts.session;
  let listed: Promise<string[]> | undefined;
  const remember = () => store.remember(live.state).catch((err: Error) => warn(`could not update the session list: ${err.message}`));

  const summarise = async (focus: string | undefined, signal: AbortSignal) =>
    acceptSummary((await runtime.ask(buildSummaryRequestText(live.state.messages, focus), signal)) ?? undefined);
  let measures = measureKeeper(live);
  // Whichever session is current: its stored measures.
  const ledger = createWireLedger({ entry: (messages, i, model) => measures.known?.entry(messages, i, model), region: (l, drop) => measures.known?.region(l, drop) });
  const requests = createRequestBuilder({
    session: () => live,
    prompt: () => runtime.prompt,
    config,
    summarise: (signal) => summarise(undefined, signal),
    warn,
    ledger,
    measured: () => measures.measured(ledger),
    windows: opts.windows,
  });
  const turnHooked = turnHooks(opts.hooks, opts.session.state.turnCount === 0, (text) => opts.host.redactor.text(text));
  // The session's own prompt; the MCP tools offered now follow its tools (they change only when a server's do).
  let base = opts.prompt;
  const servers = opts.mcp?.servers;
  const withMcp = () => (runtime.prompt = withTools(base, servers?.tools() ?? []));
  const switchTo = async (next: LiveSession, source: "resume" | "clear") => {
    measures.close(ledger);
    live.close();
    live = next;
    measures = measureKeeper(live);
    turnHooked.switched(source);
    base = await opts.reloadPrompt();
    withMcp();
    // A new session's log says what the servers offer too.
    servers?.latestEvents().forEach((e) => live.append(e));
  };
  const dropRejectedTool = (error: ModelError) => {
    const name = rejectedToolName(error);
    if (name === undefined || !servers?.drop(name)) return undefined;
    return `the API refused the schema of ${name} (${error.message.replace(/^\d+ /, "")}); it is left out for the rest of this run and the request sent again`;
  };

  const runtime: Runtime = {
    get session() {
      return live.state;
    },
    prompt: opts.prompt,
    store,
    commands: opts.commands,
    async *runTurn(text, signal) {
      const firstEvent = live.written === 0;
      const { checkpoints, hooks } = opts;
      const submitted = await turnHooked.submit(text, signal);
      if ("block" in submitted) {
        yield { type: "error", error: { message: `a UserPromptSubmit hook kept the prompt from the model: ${opts.host.redactor.text(submitted.block)}`, retryable: false } };
        return yield { type: "end", status: "error", steps: 0, usage: emptyUsage(), denials: 0 };
      }
      checkpoints?.beginTurn(live.state.id, live.state.turnCount + 1);
      // The person's own words, files and stdin go as they wrote them (what hooks added came redacted).
      live.append({ type: "user", text: submitted.prompt, at: now() });
      // Listed as soon as it is on disk (as unanswered) and again once answered — before its first
      // tool runs — so a run killed mid-turn is still found by -c; the turn's end brings it up to date.
      if (firstEvent) await remember();
      let listedAnswered = live.state.answered;
      yield { type: "message", message: live.state.messages.at(-1)! };
      // Only servers marked `required` hold up the first call; the others join when they are up.
      await servers?.ready(signal);
      const events = run({
        messages: live.state.messages,
        commit: (fact) => live.append(factEvent(fact, live.state, now())),
        // Read at each call: a server that came up mid-turn offers tools the next request names.
        get tools() {
          return runtime.prompt.tools;
        },
        dropRejectedTool,
        stream,
        buildRequest: requests(signal),
        authorize: opts.authorize,
        root: cwd,
        maxSteps: config.maxSteps,
        ...(config.maxCostUsd === undefined ? {} : { budgetSpent: (usage: Usage) => (runtime.costOf(usage) ?? Infinity) >= config.maxCostUsd! }),
        signal,
        host: opts.host,
        ...(hooks ? { hooks } : {}),
        // Nothing that may write runs before the turn's starting point is known (a read-only call does not wait).
        ...(checkpoints ? { beforeWrite: () => checkpoints.ready() } : {}),
      });
      try {
        for await (const event of events) {
          // What a call changed is on record before the next.
          if (event.type === "tool-result" && (turnHooked.hookedAfter(event.callId) || mayWrite(runtime.prompt.tools, event.name))) checkpoints?.afterCall();
          if (event.type === "end" || (!listedAnswered && live.state.answered)) await remember();
          listedAnswered ||= live.state.answered;
          yield event;
        }
      } finally {
        checkpoints?.endTurn();
      }
    },
    async inNextTurn(run) {
      const { checkpoints } = opts;
      if (!checkpoints) return run();
      // The turn begins here, before its prompt exists; runTurn's own begin goes on with this record.
      checkpoints.beginTurn(live.state.id, live.state.turnCount + 1);
      await checkpoints.ready();
      try {
        return await run();
      } finally {
        checkpoints.afterCall();
      }
    },
    reset: async () => switchTo(await store.create({ cwd, model: live.state.model }), "clear"),
    resume: async (idOrPrefix) => switchTo(await opts.open(idOrPrefix), "resume"),
    setModel: (model) => live.append({ type: "model", model }),
    models() {
      // A failure is not remembered: the next ask tries again.
      listed ??= opts.listModels().catch((err) => {
        listed = undefined;
        throw err;
      });
      return listed;
    },
    setTodos: (todos) => live.append({ type: "todos", todos }),
    readyHooks: async () => opts.hooks?.ready(),
    logHook({ callId, ...run }) {
      // What a hook printed may hold a secret it could read: the log gets it redacted, as tool output is.
      const texts = (["command", "reason", "failure", "feedback"] as const).flatMap((key) => (run[key] === undefined ? [] : [[key, opts.host.redactor.text(run[key])] as const]));
      // A saved command's `!`cmd`` is no call of the model's: its hooks are logged without a call to belong to.
      const call = callId !== undefined && live.state.pending.has(callId) ? { callId } : {};
      turnHooked.ran({ ...run, ...call });
      live.append({ ...run, ...call, ...Object.fromEntries(texts), at: now() });
    },
    async compact(focus, signal, onStart) {
      if (!live.state.messages.some((m) => m.role === "user")) return { ok: false, message: "nothing to compact yet" };
      onStart?.();
      const summary = await summarise(focus || undefined, signal);
      if (!summary) return { ok: false, message: "the summary failed or was empty; the transcript is unchanged" };
      live.append({ type: "compaction", summary: summary.summary, at: now() });
      await remember();
      return { ok: true, message: `compacted: the next request starts from a ${formatCount(summary.summary.length)}-char summary` };
    },
    ask: (text, signal) => askOnce(stream, { model: live.state.model, sessionId: live.state.id, reasoningEffort: config.reasoningEffort }, text, signal),
    contextUse() {
      const { threshold } = limitsOf(live, config, opts.windows);
      const tokens = estimateNextRequest(ledger.sync(live.state.messages, live.state.model), runtime.prompt.instructions.length);
      return { ...contextMeter(tokens, threshold), tokens, threshold };
    },
    costOf: (usage) => costUsd(live.state.model, usage),
    async undo(turn, force) {
      if (!opts.undoStore) return { ok: false, message: "this run keeps no checkpoints" };
      const done = await undoTurns({ session: live.state, turn, force, store: opts.undoStore.store, keptDir: opts.undoStore.keptDir, append: (e) => live.append(e), warn });
      if (done.ok) await remember();
      return done;
    },
    undoableTurns: () => turnRows(live.state.turns, opts.undoStore ? turnRecords(opts.undoStore.store, live.state, warn) : new Map()),
    ...(opts.mcp ? { mcp: opts.mcp } : {}),
    async close() {
      opts.checkpoints?.close();
      measures.close(ledger);
      live.close();
      await servers?.close();
    },
  };
  servers?.onChange(withMcp);
  servers?.onEvent((e) => live.append(e.error === undefined ? e : { ...e, error: opts.host.redactor.text(e.error) }));
  withMcp();
  return runtime;
}

/** File tools and commands may write; a call that failed validation or was denied cost one look that finds nothing. */
const mayWrite = (tools: readonly { name: string; kind: string }[], name: string) => {
  const kind = tools.find((t) => t.name === name)?.kind;
  return kind === "write" || kind === "exec" || kind === undefined;
};
