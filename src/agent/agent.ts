import type { TurnRow } from "../checkpoint/undo-report.ts";
import type { UndoDone, UndoRefused } from "../checkpoint/undo-turns.ts";
import type { ToolLimit } from "../commands/allowed-tools.ts";
import type { CommandCalls } from "../commands/saved-commands.ts";
import type { ContextMeter } from "../context/context-meter.ts";
import type { AgentEvent } from "../loop/events.ts";
import type { AgentMode } from "../session/agent-mode.ts";
import type { InputImage, Usage } from "../session/messages.ts";
import type { Todo } from "../session/notebook.ts";
import type { InstructionFile, SessionState } from "../session/reduce-session.ts";
import type { LiveSession } from "../store/live-session.ts";
import type { JobRegistry } from "../process/job-registry.ts";
import type { Prompt } from "./load-prompt.ts";
import type { TreeBudget } from "./tree-budget.ts";

/** What makes one agent differ from another made from the same services. */
export type AgentSpec = {
  /** Its log: a new session, or one continued. */
  session: LiveSession;
  /** How the process came to work on that session (`/clear`, `/resume`); by default `startup`, or `resume` for a session with turns. */
  start?: "clear" | "resume";
  /** Its base prompt, in place of shiro's; AGENTS.md, the skills and the notes still follow it. */
  instructions?: string;
  /** Which tools it is offered, and may run, by name: every one when absent. */
  tools?: (name: string) => boolean;
  /** Its mode (`--plan`, `--no-plan`; a child takes its parent's): the session's own when absent. */
  mode?: AgentMode;
  /** How many model calls a turn may make; the run's `maxSteps` when absent. */
  maxSteps?: number;
  /** A child's place in the tree (a `task` call made it): its parent and call, its depth, the turn's shared budget, its name in a question. */
  parent?: ChildOf;
};

/**
 * Where a child agent stands: its turn is its parent's (its file changes are recorded in it), its spending
 * the tree's; `instructions`: the subfolders' instruction files its parent had taken on when it started.
 */
export type ChildOf = { sessionId: string; callId: string; depth: number; budget: TreeBudget; label: string; instructions: readonly InstructionFile[] };

/** One agent at work: the loop with its context, its session log, its instructions, tools and limits. */
export type Agent = {
  /** The session's state: its log's events, reduced. Change it only through the methods below. */
  readonly session: SessionState;
  /** Its instructions and tools as the next request sends them (the MCP servers' tools join as they come). */
  readonly prompt: Prompt;
  /**
   * Logs the prompt and runs the loop until it answers, stops or is aborted. `tools`: a saved
   * command's `allowed-tools` — for this turn only, the tools offered and the commands approved.
   * `images`: what the person gave with the prompt, sent after its text.
   */
  runTurn(text: string, signal: AbortSignal, tools?: ToolLimit, images?: readonly InputImage[]): AsyncGenerator<AgentEvent>;
  /** A saved command's `` !`cmd` `` and `@path`, done as this agent's calls, in the checkpoint of the turn its prompt begins. */
  readonly commandCalls: CommandCalls;
  /** How it works now: in `plan` only the tools that read are offered and commands run read-only. */
  readonly mode: AgentMode;
  /**
   * Between turns (`/plan`, accepting a plan, an editor's `session/set_mode`): logs the switch when it is
   * one, and the next request is sent in `mode` — its tools, its instructions, its commands' sandbox.
   */
  setMode(mode: AgentMode): void;
  /** Logs the switch: the next request goes to `model`. */
  setModel(model: string): void;
  setTodos(todos: Todo[]): void;
  /** `/compact`: the wire continues from a model-written summary; unchanged on any failure. */
  compact(focus: string, signal: AbortSignal, onStart?: () => void): Promise<{ ok: boolean; message: string }>;
  /** A single model call without tools; null when it failed or said nothing. */
  ask(text: string, signal: AbortSignal): Promise<string | null>;
  contextUse(): ContextMeter & { tokens: number; threshold: number };
  /** The cost of this usage at the session's model; undefined for unpriced models. */
  costOf(usage: Usage): number | undefined;
  /** What the last turn cost, its children's calls included, each at its model's price; undefined when one has no price. */
  turnCostUsd(): number | undefined;
  /** Puts back the files turn `turn` (the newest when absent) and every later one changed, and takes them out of the history. */
  undo(turn: number | undefined, force: boolean): Promise<UndoDone | UndoRefused>;
  /** The session's turns still in its history, with what each changed (for `/rewind`). */
  undoableTurns(): TurnRow[];
  /** Its background jobs (`bash` with `background`): they end when it closes. */
  readonly jobs: JobRegistry;
  /** Ends its background jobs and lets go of its log (the services stay: they are the process's). */
  close(): Promise<void>;
};
