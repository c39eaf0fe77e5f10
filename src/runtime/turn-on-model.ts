import type { AgentEvent } from "../agent/events.ts";
import type { Runtime } from "./runtime.ts";

/**
 * A turn whose calls go to `model` (a saved command's): the switch is logged before the prompt and
 * the switch back after the turn, however it ended, so `shiro inspect` shows which model answered
 * and `shiro -c` goes on with the session's own. Without `model`, the turn as it is.
 */
export async function* turnOnModel(runtime: Runtime, text: string, signal: AbortSignal, model?: string): AsyncGenerator<AgentEvent> {
  const before = runtime.session.model;
  if (!model || model === before) return yield* runtime.runTurn(text, signal);
  runtime.setModel(model);
  try {
    yield* runtime.runTurn(text, signal);
  } finally {
    runtime.setModel(before);
  }
}
