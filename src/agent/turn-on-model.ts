import type { AgentEvent } from "../loop/events.ts";
import type { CommandTurn } from "../commands/saved-commands.ts";
import type { Agent } from "./agent.ts";

/**
 * A turn as a saved command shapes it: its calls go to the command's `model` (the switch is logged
 * before the prompt and the switch back after the turn, however it ended, so `shiro inspect` shows
 * which model answered and `shiro -c` goes on with the session's own), and its `allowed-tools` hold
 * for this turn alone. Without either, the turn as it is; its `images` go with the prompt.
 */
export async function* turnOnModel(agent: Agent, text: string, signal: AbortSignal, turn: CommandTurn = {}): AsyncGenerator<AgentEvent> {
  const { model, tools, images } = turn;
  const before = agent.session.model;
  if (!model || model === before) return yield* agent.runTurn(text, signal, tools, images);
  agent.setModel(model);
  try {
    yield* agent.runTurn(text, signal, tools, images);
  } finally {
    agent.setModel(before);
  }
}
