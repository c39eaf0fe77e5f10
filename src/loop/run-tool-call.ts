import { z } from "zod";
import type { AgentEvent } from "./events.ts";
import type { ToolCallPart } from "../session/messages.ts";
import type { Commit } from "../session/turn-fact.ts";
import { ToolError, type AnyTool, type ToolContext, type ToolOutput } from "../tools/tool.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import type { Grant } from "../session/sandbox-level.ts";
import type { Authorization, Authorize, AuthorizeRequest } from "../tools/authorize-request.ts";
import type { ToolHooks } from "../hooks/create-hooks.ts";

export type { Grant };
import { dropNullArguments } from "../wire/tool-schema.ts";

export type { Authorization, Authorize, AuthorizeRequest };

type Deps = {
  tools: readonly AnyTool[];
  /** Records the verdict, the start and the result, each before the loop goes on. */
  commit: Commit;
  authorize: Authorize;
  root: string;
  signal: AbortSignal;
  host: ToolHost;
  /** The person's hooks: PreToolUse before the gate (it may block or ask, never allow more), PostToolUse after the run. */
  hooks?: ToolHooks;
  /**
   * Settles when something that may write the project may run: the checkpoint knows the turn's
   * starting point. Awaited before a call that may write (a file tool's write, a command not confined
   * to reading, an MCP tool) and before PostToolUse hooks that will run (a formatter writes); a call
   * that only reads runs at once.
   */
  beforeWrite?: () => Promise<void>;
  /** Told the paths a call that ran was about (a file tool's), once its result is on record: their folders' instructions may join. */
  touched?: (paths: readonly string[]) => void;
};

export type CallOutcome = { output: string; isError: boolean; denied: boolean };

/**
 * Validates, authorises and runs one call, yielding its events. Every failure — unknown tool, bad
 * JSON, arguments that do not fit the schema, a denial, a throwing tool — becomes an error result
 * the model can read and act on. Every output leaves here redacted, the one place all of them pass.
 */
export async function* runToolCall(call: ToolCallPart, deps: Deps): AsyncGenerator<AgentEvent, CallOutcome> {
  const { host } = deps;
  yield { type: "tool-call", callId: call.callId, name: call.name, arguments: call.arguments };
  host.redactor.refresh?.();
  const finish = (out: ToolOutput, denied = false): [AgentEvent, CallOutcome] => {
    const isError = out.isError === true || denied;
    const output = host.redactor.text(out.output);
    deps.commit({ type: "result", callId: call.callId, output, isError, denied, ...(out.images?.length ? { images: out.images } : {}), ...(out.child ? { child: out.child } : {}) });
    return [
      { type: "tool-result", callId: call.callId, name: call.name, output, isError, denied, ...(out.display ? { display: host.redactor.text(out.display) } : {}) },
      { output, isError, denied },
    ];
  };

  const checked = await validate(call, deps);
  if ("error" in checked) {
    const [event, outcome] = finish({ output: checked.error, isError: true });
    yield event;
    return outcome;
  }
  const { tool, args } = checked;

  const hooked = { tool: tool.name, input: args, callId: call.callId };
  const pre = (await deps.hooks?.before(hooked, deps.signal)) ?? {};
  const verdict: Authorization =
    pre.block !== undefined
      ? { allowed: false, reason: `a PreToolUse hook blocked it: ${pre.block}` }
      : await deps.authorize({ tool, args, callId: call.callId, root: deps.root, redactor: host.redactor, ...(host.files ? { files: host.files } : {}), ...(pre.ask !== undefined ? { hookAsk: pre.ask } : {}) });
  deps.commit(verdict.allowed ? { type: "verdict", callId: call.callId, allowed: true, ...(verdict.sandbox ? { sandbox: verdict.sandbox } : {}) } : { type: "verdict", callId: call.callId, allowed: false, reason: verdict.reason });
  if (!verdict.allowed) {
    const [event, outcome] = finish({ output: `Denied: ${verdict.reason}`, isError: true }, true);
    yield event;
    return outcome;
  }
  if (tool.kind === "write" || (tool.kind === "exec" && verdict.sandbox !== "read-only")) await deps.beforeWrite?.();
  // On record before it runs: a tool started and never finished is never run again on resume.
  deps.commit({ type: "tool", callId: call.callId });

  const chunks: string[] = [];
  const notices: string[] = [];
  const progress: string[] = [];
  const relayed: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  const ctx: ToolContext = {
    root: deps.root,
    env: host.env,
    signal: deps.signal,
    interrupt: host.interruptSignal?.(),
    ...(tool.kind === "exec" && host.sandbox ? { sandbox: await host.sandbox({ level: verdict.sandbox ?? "read-only", byPerson: verdict.byPerson === true }) } : {}),
    ...(host.readDenied ? { readDenied: (path: string, asked?: string) => host.readDenied!(tool.name, path, deps.root, asked) } : {}),
    ...(host.secretGlobs ? { secretGlobs: host.secretGlobs } : {}),
    ...(host.jobs ? { jobs: host.jobs } : {}),
    ...(host.writeRefused ? { writeRefused: (path: string) => host.writeRefused!(tool.name, path, deps.root) } : {}),
    // The write tools put back the secret a marker stood for, found as the redactor finds it.
    redactions: (text: string) => host.redactor.find(text),
    ...(host.files ? { files: host.files } : {}),
    onOutput: (chunk) => {
      chunks.push(chunk);
      wake?.();
    },
    notice: (text) => {
      notices.push(text);
      wake?.();
    },
    progress: (text) => {
      progress.push(text);
      wake?.();
    },
    // A child agent's events, made by the tool that started it (they are the loop's own kind).
    relay: (event) => {
      relayed.push(event as AgentEvent);
      wake?.();
    },
    callId: call.callId,
  };
  let settled: ToolOutput | undefined;
  const running = runSafely(tool, args, ctx).then((out) => {
    settled = out;
    wake?.();
  });
  const redacting = host.redactor.stream();
  function* show(chunk: string): Generator<AgentEvent> {
    if (chunk) yield { type: "tool-output", callId: call.callId, chunk };
  }
  function* told(): Generator<AgentEvent> {
    for (const text of notices.splice(0)) yield { type: "notice", level: "warn", text: host.redactor.text(text) };
    // Only the newest step counts: a status line shows one.
    const latest = progress.splice(0).at(-1);
    if (latest !== undefined) yield { type: "tool-progress", callId: call.callId, text: host.redactor.text(latest) };
  }
  // Stream partial output and notices as they arrive, until the tool settles.
  while (!settled) {
    if (chunks.length === 0 && notices.length === 0 && progress.length === 0 && relayed.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    yield* relayed.splice(0);
    yield* told();
    for (const chunk of chunks.splice(0)) yield* show(redacting.push(chunk));
  }
  yield* told();
  await running;
  yield* relayed.splice(0);
  // A secret the call itself brought into the project (a copy from elsewhere) is hidden in its result too.
  host.redactor.refresh?.();
  // What came with the result, and the tail held back in case it began a secret.
  yield* show(redacting.push(chunks.splice(0).join("")) + redacting.flush());
  // A formatter's change is on disk before the result is: the checkpoint after the call and the model's next read see it.
  const added = await deps.hooks?.after({ ...hooked, output: host.redactor.text(settled.output), isError: settled.isError === true }, deps.signal, deps.beforeWrite);
  if (added) settled = { ...settled, output: `${settled.output}\n\n${added}` };
  const [event, outcome] = finish(settled, settled.denied === true);
  deps.touched?.(tool.subject(args).paths ?? []);
  yield event;
  return outcome;
}

async function validate(call: ToolCallPart, deps: Deps): Promise<{ tool: AnyTool; args: unknown } | { error: string }> {
  const tool = deps.tools.find((t) => t.name === call.name);
  if (!tool) return { error: `Unknown tool "${call.name}". Available tools: ${deps.tools.map((t) => t.name).join(", ")}.` };
  let raw: unknown;
  try {
    raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch (err) {
    return { error: `The arguments of ${call.name} are not valid JSON (${(err as Error).message}). Send a JSON object matching its schema.` };
  }
  // Strict tool schemas make optional fields nullable; the tools' own schemas expect them absent. A raw
  // schema was sent non-strict: its nulls are the model's own.
  const parsed = tool.schema.safeParse(tool.parameters ? raw : dropNullArguments(raw));
  if (!parsed.success) return { error: `Invalid arguments for ${call.name}:\n${z.prettifyError(parsed.error)}` };
  return { tool, args: parsed.data };
}

async function runSafely(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolOutput> {
  try {
    return await tool.run(args, ctx);
  } catch (err) {
    if (err instanceof ToolError) return { output: err.message, isError: true };
    if (ctx.signal.aborted) return { output: `${tool.name} was interrupted by the user.`, isError: true };
    return { output: `${tool.name} failed: ${(err as Error)?.message ?? String(err)}`, isError: true };
  }
}
