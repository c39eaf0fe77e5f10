import { turnRows } from "../checkpoint/undo-report.ts";
import { turnRecords, undoTurns } from "../checkpoint/undo-turns.ts";
import { contextMeter } from "../context/context-meter.ts";
import { estimateNextRequest } from "../context/estimate.ts";
import { acceptSummary, buildSummaryRequestText } from "../context/summary.ts";
import { createWireLedger } from "../context/wire-ledger.ts";
import type { AgentMode } from "../session/agent-mode.ts";
import type { HookRun } from "../session/hook-run.ts";
import type { Usage } from "../session/messages.ts";
import type { Todo } from "../session/notebook.ts";
import { costUsd } from "../pricing/cost.ts";
import type { Services } from "../services/services.ts";
import { formatCount } from "../text/format-count.ts";
import type { Authorize } from "../tools/authorize-request.ts";
import type { Agent, AgentSpec } from "./agent.ts";
import { agentInstructions } from "./agent-instructions.ts";
import { askOnce, askOnceWhy } from "./ask-once.ts";
import { createCommandCalls } from "./command-calls.ts";
import { loadPrompt, withTools, type Prompt } from "./load-prompt.ts";
import { measureKeeper } from "./measure-keeper.ts";
import { planPrompt } from "./plan-mode.ts";
import { createRequestBuilder, limitsOf } from "./request-builder.ts";
import { createTurnRunner } from "./run-turn.ts";
import { createTaskTool } from "./task-tool.ts";
import { createTreeBudget } from "./tree-budget.ts";
import { turnHooks } from "./turn-hooks.ts";

const now = () => new Date().toISOString();

/**
 * An agent made from the process's services: its own session log, instructions, tools and limits.
 * It may be made more than once in a process; closing it lets go of its log, not of the services.
 */
export async function createAgent(services: Services, spec: AgentSpec): Promise<Agent> {
  const { config, flags, warn, sessions: store, model } = services;
  const live = spec.session;
  // Its own jobs, a child's too: what a child started ends with the child (docs/jobs.md).
  const jobs = services.jobs.open();
  const offers = spec.tools;
  const remember = () => store.remember(live.state).catch((err: Error) => warn(`could not update the session list: ${err.message}`));
  const redact = services.host.redactor.text;
  const setTodos = (todos: Todo[]) => live.append({ type: "todos", todos });
  const costOf = (usage: Usage) => costUsd(live.state.model, usage);
  const setMode = (next: AgentMode) => {
    if (next === live.state.mode) return;
    live.append({ type: "mode", mode: next, at: now() });
    reshape();
  };
  // todo_write keeps this agent's task list.
  const notebook = {
    get todos() {
      return live.state.notebook.todos;
    },
    set todos(todos) {
      setTodos(todos);
    },
  };
  // The turn's budget, shared by every child it starts: a child's is its parent's.
  const budget = { current: spec.parent?.budget ?? createTreeBudget() };
  const depth = spec.parent?.depth ?? 0;
  const task =
    depth < config.agents.maxDepth
      ? createTaskTool(services, { sessionId: () => live.state.id, model: () => live.state.model, mode: () => live.state.mode, depth, tools: () => prompt.tools, instructionFiles: () => live.state.instructionFiles, budget: () => budget.current, start: (child) => createAgent(services, child) }, await services.agents.list())
      : undefined;
  const base: Prompt = await loadPrompt({
    home: config.home,
    cwd: services.cwd,
    instructionFiles: flags.instructionFiles,
    noMemory: flags.noMemory,
    memoryReadOnly: !store.saves,
    notebook,
    skills: services.skills,
    warn,
    ...(spec.instructions !== undefined ? { instructions: spec.instructions } : {}),
    ...(offers ? { offers } : {}),
    ...(task ? { agentTools: [task] } : {}),
  });
  const servers = services.mcp.servers;
  // The agent's own prompt; the MCP tools offered now follow its tools (they change only when a server's do), and plan mode narrows both.
  let prompt = base;
  const reshape = () => {
    const offered = withTools(base, servers.tools().filter((tool) => !offers || offers(tool.name)));
    prompt = live.state.mode === "plan" ? planPrompt(offered) : offered;
  };
  const readDenied = services.host.readDenied;
  const nested = agentInstructions({
    live,
    root: services.cwd,
    on: flags.instructionFiles === "all",
    ...(readDenied ? { readDenied: (path: string) => readDenied("read_file", path, services.cwd) } : {}),
    warn,
    ...(spec.parent ? { inherited: spec.parent.instructions } : {}),
  });
  // What the next request sends: the prompt, with the subfolders' instruction files taken on so far.
  const current = () => nested.withFiles(prompt);
  const settings = { ...config, maxSteps: spec.maxSteps ?? config.maxSteps, ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}) };

  /** A summary of the session so far, or why there is none (for /compact to say). */
  const summariseWhy = async (focus: string | undefined, signal: AbortSignal) => {
    const answer = await askOnceWhy(model.stream, { model: live.state.model, sessionId: live.state.id, reasoningEffort: config.reasoningEffort }, buildSummaryRequestText(live.state.messages, focus), signal);
    if ("failed" in answer) return { failed: answer.failed };
    return acceptSummary(answer.text) ?? { failed: "the model's answer was no summary (too short, or without its Goal section)" };
  };
  const measures = measureKeeper(live);
  const ledger = createWireLedger({ entry: (messages, i, m) => measures.known?.entry(messages, i, m), region: (l, drop) => measures.known?.region(l, drop) });
  const requests = createRequestBuilder({
    session: () => live,
    prompt: current,
    config: settings,
    summarise: async (signal) => ((s) => ("failed" in s ? null : s))(await summariseWhy(undefined, signal)),
    warn,
    ledger,
    measured: () => measures.measured(ledger),
    jobs,
    windows: model.windows,
  });
  // The calls a PostToolUse hook ran after: a formatter may have written, whatever the tool's kind.
  const postHooked = new Set<string>();
  const logHook = ({ callId, ...run }: Omit<HookRun, "at">) => {
    // What a hook printed may hold a secret it could read: the log gets it redacted, as tool output is.
    const texts = (["command", "reason", "failure", "feedback"] as const).flatMap((key) => (run[key] === undefined ? [] : [[key, redact(run[key])] as const]));
    // A saved command's `!`cmd`` is no call of the model's: its hooks are logged without a call to belong to.
    const call = callId !== undefined && live.state.pending.has(callId) ? { callId } : {};
    if (call.callId && run.event === "PostToolUse") postHooked.add(call.callId);
    live.append({ ...run, ...call, ...Object.fromEntries(texts), at: now() });
  };
  const hooks = services.hooks?.forSession({ sessionId: () => live.state.id, record: logHook });
  const hooked = turnHooks(hooks, spec.start ?? (live.state.turnCount === 0 ? "startup" : "resume"), redact);
  // A child's question names it; an approval waiting is what Notification hooks are for (a desktop notification while the person is away).
  const authorize: Authorize = (request) =>
    services.authorize({ ...request, ...(live.state.mode === "plan" ? { readOnly: true } : {}), ...(spec.parent ? { who: spec.parent.label } : {}), ...(hooks ? { asking: (summary) => hooks.notify(`shiro needs your approval: ${summary}`) } : {}) });
  const turns = createTurnRunner({ services, live, prompt: current, ...(nested.touched ? { touched: nested.touched } : {}), hooked, hookedAfter: (callId) => postHooked.delete(callId), hooks, authorize, requests, remember, settings, budget, jobs, ...(spec.parent ? { child: true } : {}) });
  const stopChanges = servers.onChange(reshape);
  // A session begun later (/clear, /resume) says first what the servers offer now.
  if (spec.start) servers.latestEvents().forEach((e) => live.append(e));
  const stopEvents = servers.onEvent((e) => live.append(e.error === undefined ? e : { ...e, error: redact(e.error) }));
  if (spec.mode) setMode(spec.mode);
  reshape();

  const agent: Agent = {
    get session() {
      return live.state;
    },
    get prompt() {
      return current();
    },
    runTurn: turns.run,
    commandCalls: createCommandCalls({ tools: () => prompt.tools, authorize, root: services.cwd, host: services.host, ...(hooks ? { hooks } : {}), inTurn: turns.inNextTurn }),
    get mode() {
      return live.state.mode;
    },
    setMode,
    setModel: (m) => live.append({ type: "model", model: m }),
    setTodos,
    async compact(focus, signal, onStart) {
      if (!live.state.messages.some((m) => m.role === "user")) return { ok: false, message: "nothing to compact yet" };
      onStart?.();
      const summary = await summariseWhy(focus || undefined, signal);
      if ("failed" in summary) return { ok: false, message: `could not compact: ${summary.failed}; the transcript is unchanged` };
      live.append({ type: "compaction", summary: summary.summary, at: now() });
      await remember();
      return { ok: true, message: `compacted: the next request starts from a ${formatCount(summary.summary.length)}-char summary` };
    },
    ask: (text, signal) => askOnce(model.stream, { model: live.state.model, sessionId: live.state.id, reasoningEffort: config.reasoningEffort }, text, signal),
    contextUse() {
      const { threshold } = limitsOf(live, settings, model.windows);
      const tokens = estimateNextRequest(ledger.sync(live.state.messages, live.state.model), current().instructions.length);
      return { ...contextMeter(tokens, threshold), tokens, threshold };
    },
    costOf,
    turnCostUsd: () => budget.current.costUsd(),
    async undo(turn, force) {
      const { store: checkpoints, keptDir } = services.undoStore;
      const done = await undoTurns({ session: live.state, turn, force, store: checkpoints, keptDir, append: (e) => live.append(e), warn });
      if (done.ok) await remember();
      return done;
    },
    undoableTurns: () => turnRows(live.state.turns, turnRecords(services.undoStore.store, live.state, warn)),
    jobs,
    async close() {
      await jobs.close();
      stopChanges();
      stopEvents();
      measures.close(ledger);
      live.close();
    },
  };
  return agent;
}
