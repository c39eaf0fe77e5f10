import type { HookEventName, HookRun } from "../session/hook-run.ts";
import { prepareHook, type HookSandbox } from "./hook-box.ts";
import type { HookDefinition } from "./hook-config.ts";
import { hookOutcome, type HookExit, type HookOutcome } from "./hook-outcome.ts";
import { matchesTool } from "./match-tool.ts";
import { runHookCommand } from "./run-hook.ts";
import { hookToolInput } from "./tool-input.ts";

/** A tool call as hooks see it: its name, its arguments (`tool_input`), its id. */
export type HookedCall = { tool: string; input: unknown; callId: string };

/** The loop's side of hooks (src/agent/): before a call, after it, and when the model stops. */
export type ToolHooks = {
  /** PreToolUse: `block` (the reason the model reads) stops the call; `ask` sends it to the person whatever the rules say. */
  before(call: HookedCall, signal: AbortSignal): Promise<{ block?: string; ask?: string }>;
  /**
   * PostToolUse: what the hooks add for the model to read beside the result (a block's reason,
   * `additionalContext`). `beforeRun` is awaited first when a hook matches (it may write the project).
   */
  after(call: HookedCall & { output: string; isError: boolean }, signal: AbortSignal, beforeRun?: () => Promise<void>): Promise<string | undefined>;
  /** Stop: the reason a hook gave the model to go on (it already joined the history), or undefined to stop. */
  stop(active: boolean, signal: AbortSignal): Promise<string | undefined>;
};

/** Every event's side for one session: the loop's, and its agent's prompt, session start and "an approval waits". */
export type SessionHooks = ToolHooks & {
  /** UserPromptSubmit: `block` keeps the prompt from the model; `context` is added to it. */
  prompt(text: string, signal: AbortSignal): Promise<{ block?: string; context?: string }>;
  /** SessionStart: the context they add for the model (`additionalContext`, or plain stdout), joined. */
  sessionStart(source: "startup" | "resume" | "clear", signal: AbortSignal): Promise<string | undefined>;
  /** Notification: told without waiting for the hooks to finish. */
  notify(message: string): void;
};

/** Whose hooks they are: the session id each hook is told, and where each run is logged. */
export type HookSession = { sessionId: () => string; record: (run: Omit<HookRun, "at">) => void };

/** The hooks of the process, built once: each agent fires them as its own session (`forSession`). */
export type Hooks = {
  forSession(who: HookSession): SessionHooks;
  /** Asks about a project's unapproved hooks now rather than before the first run (the REPL, as it starts); once. */
  ready(): Promise<void>;
  /** The command lines of the hooks in force (the person's, and a project's once approved). */
  commands(): readonly string[];
};

export type HooksOptions = {
  /** The hooks in force; `pending` (a project's, not yet approved) are asked about before the first run. */
  definitions: readonly HookDefinition[];
  /** Asked once, before the first hook runs: whether the person approves hooks a project brought. */
  ready?: () => Promise<readonly HookDefinition[]>;
  /** bash found among the system programs, or why not (then every hook fails, and so blocks what it guards). */
  bash: { path: string } | { why: string };
  /** Where hooks run (hook-box.ts): the run's command sandbox at a level, or none. */
  sandbox: HookSandbox;
  cwd: string;
  env: Readonly<Record<string, string>>;
  warn: (line: string) => void;
};

type Ran = HookOutcome & { hook: HookDefinition };

/** The hooks in force: each event runs its matching hooks in the order configured, one after another. */
export function createHooks(opts: HooksOptions): Hooks {
  let definitions = opts.definitions;
  let readied: Promise<void> | undefined;
  const ready = () => (readied ??= opts.ready ? opts.ready().then((approved) => void (definitions = [...definitions, ...approved])) : Promise.resolve());

  async function fire(who: HookSession, event: HookEventName, fields: Record<string, unknown>, signal?: AbortSignal, call?: HookedCall, stopAtBlock = false, beforeRun?: () => Promise<void>): Promise<Ran[]> {
    await ready();
    const matching = definitions.filter((d) => d.event === event && (!call || matchesTool(d.matcher, call.tool)));
    if (matching.length === 0) return [];
    await beforeRun?.();
    const input = `${JSON.stringify({ session_id: who.sessionId(), cwd: opts.cwd, hook_event_name: event, ...fields })}
`;
    const ran: Ran[] = [];
    for (const hook of matching) {
      const started = performance.now();
      const exit = await run(hook, input, signal);
      // The person hears what the sandbox said of it (writes gone with its private folders, a secret it made).
      for (const note of exit.notes ?? []) opts.warn(`the ${event} hook \`${hook.command}\`: ${note}`);
      const outcome = hookOutcome(hook, exit);
      const feedback = event === "Stop" && outcome.decision === "block" ? stopFeedback(outcome.reason) : undefined;
      who.record({
        type: "hook",
        event,
        command: hook.command,
        source: hook.source,
        ...(call ? { callId: call.callId } : {}),
        ...(exit.exit !== undefined ? { exit: exit.exit } : {}),
        decision: outcome.decision,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        ...(outcome.failure ? { failure: outcome.failure } : {}),
        ...(feedback ? { feedback } : {}),
        ms: Math.round(performance.now() - started),
      });
      if (outcome.failure && outcome.decision !== "block") opts.warn(`the ${event} hook \`${hook.command}\` ${outcome.failure}; going on`);
      ran.push({ ...outcome, hook });
      if (stopAtBlock && outcome.decision === "block") break;
    }
    return ran;
  }

  async function run(hook: HookDefinition, input: string, signal?: AbortSignal): Promise<HookExit> {
    const cannot = (why: string): HookExit => ({ stdout: "", stderr: "", timedOut: false, spawnError: why });
    if ("why" in opts.bash) return cannot(opts.bash.why);
    const prepared = await prepareHook(hook, [opts.bash.path, "-c", hook.command], opts.cwd, opts.sandbox);
    if ("why" in prepared) return cannot(prepared.why);
    return runHookCommand(prepared, { input, cwd: opts.cwd, env: opts.env, timeoutMs: hook.timeoutS * 1000, ...(signal ? { signal } : {}) });
  }

  const joined = (texts: (string | undefined)[]) => texts.filter((t): t is string => !!t).join("\n") || undefined;

  const forSession = (who: HookSession): SessionHooks => ({
    async before(call, signal) {
      const ran = await fire(who, "PreToolUse", { tool_name: call.tool, tool_input: hookToolInput(call.tool, call.input, opts.cwd), tool_use_id: call.callId }, signal, call, true);
      const blocked = ran.find((r) => r.decision === "block");
      if (blocked) return { block: blocked.reason ?? `a PreToolUse hook blocked it` };
      const asked = ran.find((r) => r.decision === "ask");
      // An "allow" is no objection and nothing more: the guard, the rules and the sandbox still decide.
      return asked ? { ask: asked.reason ?? `the PreToolUse hook \`${asked.hook.command}\` asks for a person's approval` } : {};
    },
    async after(call, signal, beforeRun) {
      const ran = await fire(who, "PostToolUse", { tool_name: call.tool, tool_input: hookToolInput(call.tool, call.input, opts.cwd), tool_use_id: call.callId, tool_response: { output: call.output, is_error: call.isError } }, signal, call, false, beforeRun);
      return joined(ran.map((r) => (r.decision === "block" ? (r.reason ?? r.context) : r.context)));
    },
    async stop(active, signal) {
      const ran = await fire(who, "Stop", { stop_hook_active: active }, signal);
      const blocked = ran.filter((r) => r.decision === "block");
      return blocked.length ? joined(blocked.map((r) => r.reason ?? `\`${r.hook.command}\` gave no reason`)) : undefined;
    },
    async prompt(text, signal) {
      const ran = await fire(who, "UserPromptSubmit", { prompt: text }, signal, undefined, true);
      const blocked = ran.find((r) => r.decision === "block");
      if (blocked) return { block: blocked.reason ?? "a UserPromptSubmit hook blocked it" };
      const context = joined(ran.map((r) => r.context));
      return context ? { context } : {};
    },
    async sessionStart(source, signal) {
      return joined((await fire(who, "SessionStart", { source }, signal)).map((r) => r.context));
    },
    notify(message) {
      void fire(who, "Notification", { message }).catch((err: Error) => opts.warn(`a Notification hook failed: ${err.message}`));
    },
  });

  return { forSession, ready, commands: () => definitions.map((d) => d.command) };
}

/** A Stop hook's reason to go on, as the model reads it. */
const stopFeedback = (reason: string | undefined) => `A Stop hook asked you to keep going: ${reason ?? "(it gave no reason)"}`;
