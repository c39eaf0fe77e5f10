import type { ToolLimit } from "../commands/allowed-tools.ts";
import type { SessionHooks } from "../hooks/create-hooks.ts";
import type { AgentEvent } from "../loop/events.ts";
import { run } from "../loop/run.ts";
import { factEvents } from "../session/fact-event.ts";
import { userEvents } from "../session/user-events.ts";
import { emptyUsage, type InputImage, type Usage } from "../session/messages.ts";
import type { Services } from "../services/services.ts";
import type { LiveSession } from "../store/live-session.ts";
import type { Authorize } from "../tools/authorize-request.ts";
import { rejectedToolName, type ModelError } from "../wire/model-error.ts";
import { withAllows } from "./command-calls.ts";
import type { Prompt } from "./load-prompt.ts";
import type { createRequestBuilder } from "./request-builder.ts";
import type { TurnHooks } from "./turn-hooks.ts";
import { createTreeBudget, type TreeBudget } from "./tree-budget.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { JobRegistry } from "../process/job-registry.ts";

export type TurnDeps = {
  services: Services;
  live: LiveSession;
  prompt: () => Prompt;
  hooked: TurnHooks;
  /** Whether a PostToolUse hook ran after this call (asked once per call). */
  hookedAfter: (callId: string) => boolean;
  hooks?: SessionHooks | undefined;
  authorize: Authorize;
  requests: ReturnType<typeof createRequestBuilder>;
  /** Brings the session's entry in the list up to date. */
  remember: () => Promise<unknown>;
  settings: { maxSteps: number; maxCostUsd?: number };
  /** The turn's tree budget: a root agent's turn starts a new one, a child reports into its parent's. */
  budget: { current: TreeBudget };
  /** The agent's background jobs, which its calls start, read and kill. */
  jobs: JobRegistry;
  /** The paths a call that ran was about: the folders' instruction files join (agent-instructions.ts). */
  touched?: (paths: readonly string[]) => void;
  /** A child agent: its turn is its parent's in the checkpoints (the parent records what it changed). */
  child?: true;
};

const now = () => new Date().toISOString();

/** An agent's turns: the prompt through its hooks into the log, the servers it waits for, then the loop, with each turn's file changes on record. */
export function createTurnRunner(d: TurnDeps) {
  const { services, live, hooked } = d;
  const { checkpoints } = services;
  const host = { ...services.host, jobs: d.jobs };
  const servers = services.mcp.servers;
  const redact = host.redactor.text;
  const dropRejectedTool = (error: ModelError) => {
    const name = rejectedToolName(error);
    if (name === undefined || !servers.drop(name)) return undefined;
    return `the API refused the schema of ${name} (${error.message.replace(/^\d+ /, "")}); it is left out for the rest of this run and the request sent again`;
  };
  const stopped = (): AgentEvent => ({ type: "end", status: "error", steps: 0, usage: emptyUsage(), denials: 0 });

  async function* runTurn(text: string, signal: AbortSignal, limit?: ToolLimit, images: readonly InputImage[] = []): AsyncGenerator<AgentEvent> {
    const firstEvent = live.written === 0;
    const submitted = await hooked.submit(text, signal);
    if ("block" in submitted) {
      yield { type: "error", error: { message: `a UserPromptSubmit hook kept the prompt from the model: ${redact(submitted.block)}`, retryable: false } };
      return yield stopped();
    }
    if (!d.child) {
      d.budget.current = createTreeBudget();
      checkpoints.beginTurn(live.state.id, live.state.turnCount + 1);
    }
    // The person's own words, files, images and stdin go as they gave them (what hooks added came redacted).
    live.append(...userEvents(submitted.prompt, images, live.state, now()));
    // Listed as soon as it is on disk (as unanswered) and again once answered — before its first
    // tool runs — so a run killed mid-turn is still found by -c; the turn's end brings it up to date.
    if (firstEvent) await d.remember();
    let listedAnswered = live.state.answered;
    yield { type: "message", message: live.state.messages.at(-1)! };
    // The servers the first call waits for (print mode: all; the REPL: those marked `required`); the others join when they are up.
    // A required one that did not start in print mode stops the turn before anything is sent.
    const missing = await servers.ready(signal);
    if (missing.length) {
      if (!d.child) checkpoints.endTurn();
      for (const message of missing) yield { type: "error", error: { message: redact(message), code: "mcp_server_required", retryable: false } };
      return yield stopped();
    }
    const { maxCostUsd } = d.settings;
    const spent = (usage: Usage, denials?: number) => {
      d.budget.current.report(live.state.id, live.state.model, usage, denials);
      return maxCostUsd !== undefined && (d.budget.current.costUsd() ?? Infinity) >= maxCostUsd;
    };
    const events = run({
      messages: live.state.messages,
      commit: (fact) => live.append(...factEvents(fact, live.state, now())),
      // Read at each call: a server that came up mid-turn offers tools the next request names.
      // A command's allowed-tools hold back the rest: not offered, and not run if asked for anyway.
      get tools() {
        const tools = d.prompt().tools;
        return limit ? tools.filter((tool) => limit.offers(tool.name)) : tools;
      },
      dropRejectedTool,
      stream: services.model.stream,
      buildRequest: d.requests(signal, limit?.offers),
      authorize: withAllows(d.authorize, limit?.allows),
      root: services.cwd,
      maxSteps: d.settings.maxSteps,
      budgetSpent: spent,
      signal,
      host,
      ...(d.hooks ? { hooks: d.hooks } : {}),
      // Nothing that may write runs before the turn's starting point is known (a read-only call does not wait).
      beforeWrite: () => checkpoints.ready(),
      ...(d.touched ? { touched: d.touched } : {}),
    });
    try {
      for await (const event of events) {
        // What a call changed is on record before the next (a child's changes are its parent's turn's).
        if (!d.child && event.type === "tool-result" && (d.hookedAfter(event.callId) || mayWrite(d.prompt().tools, event.name))) checkpoints.afterCall();
        if (event.type === "end" || (!listedAnswered && live.state.answered)) await d.remember();
        listedAnswered ||= live.state.answered;
        if (event.type === "end") spent(event.usage, event.denials);
        // A root turn's totals are the tree's: its children's calls, and their denials, count.
        yield event.type === "end" && !d.child ? { ...event, usage: d.budget.current.usage(), denials: d.budget.current.denials() } : event;
      }
    } finally {
      if (!d.child) checkpoints.endTurn();
    }
  }

  async function inNextTurn<T>(work: () => Promise<T>): Promise<T> {
    // The turn begins here, before its prompt exists; runTurn's own begin goes on with this record.
    checkpoints.beginTurn(live.state.id, live.state.turnCount + 1);
    await checkpoints.ready();
    try {
      return await work();
    } finally {
      checkpoints.afterCall();
    }
  }

  return { run: runTurn, inNextTurn };
}

/** File tools, commands and child agents may write; a call that failed validation or was denied cost one look that finds nothing. */
const mayWrite = (tools: readonly AnyTool[], name: string) => {
  const tool = tools.find((t) => t.name === name);
  return tool === undefined || tool.kind === "write" || tool.kind === "exec" || tool.delegates === true;
};
