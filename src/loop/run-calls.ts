import type { ToolCallPart } from "../session/messages.ts";
import type { AgentEvent } from "./events.ts";
import { runToolCall, type CallOutcome } from "./run-tool-call.ts";

type Deps = Parameters<typeof runToolCall>[1];

/**
 * The calls of one response, in order, except that calls of a delegating tool (a child agent's
 * `task`) side by side run at once: their events interleave as they come, each result committed
 * when it is ready. Calls an abort leaves unrun get no result (the wire says so).
 */
export async function* runCalls(calls: readonly ToolCallPart[], deps: Deps): AsyncGenerator<AgentEvent, { denials: number }> {
  const delegates = (call: ToolCallPart) => deps.tools.find((tool) => tool.name === call.name)?.delegates === true;
  let denials = 0;
  for (let i = 0; i < calls.length && !deps.signal.aborted; ) {
    let end = i + 1;
    if (delegates(calls[i]!)) while (end < calls.length && delegates(calls[end]!)) end++;
    const batch = calls.slice(i, end);
    i = end;
    const outcomes = batch.length === 1 ? [yield* runToolCall(batch[0]!, deps)] : yield* interleaved(batch.map((call) => runToolCall(call, deps)));
    denials += outcomes.filter((outcome) => outcome.denied).length;
  }
  return { denials };
}

/** Every generator's events as each comes, and their returns in the generators' order. */
async function* interleaved(runs: AsyncGenerator<AgentEvent, CallOutcome>[]): AsyncGenerator<AgentEvent, CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  const step = (i: number) => runs[i]!.next().then((next) => ({ i, next }));
  const pending = new Map(runs.map((_, i) => [i, step(i)]));
  while (pending.size > 0) {
    const { i, next } = await Promise.race(pending.values());
    if (next.done) {
      outcomes[i] = next.value;
      pending.delete(i);
    } else {
      pending.set(i, step(i));
      yield next.value;
    }
  }
  return outcomes;
}
