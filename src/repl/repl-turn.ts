import type { AgentEvent } from "../loop/events.ts";
import type { CommandTurn } from "../commands/saved-commands.ts";
import type { Agent } from "../agent/agent.ts";
import { turnOnModel } from "../agent/turn-on-model.ts";
import { renderDiff } from "../ui/diff-view.ts";
import { createTranscript } from "../ui/transcript.ts";

/** A turn under way in the REPL: what Esc and Ctrl-C reach, and when it is over. */
export type Turn = {
  controller: AbortController;
  /** Set while a tool runs: Ctrl-C stops that tool (a `bash` command) instead of the turn. */
  interrupt?: AbortController;
  /** The approval question showed the running call's diff: its result need not show it again. */
  diffShown?: boolean;
  /** Resolved when the turn's events have all been handled (and its messages recorded). */
  finished: PromiseWithResolvers<void>;
};

export const newTurn = (): Turn => ({ controller: new AbortController(), finished: Promise.withResolvers<void>() });

/** Runs the turn to its end, each event told to the status line (`observe`) and written to the transcript. */
export async function playTurn(turn: Turn, agent: Agent, prompt: string, out: { write: (text: string) => void; observe: (event: AgentEvent) => void; color: boolean }, command?: CommandTurn): Promise<void> {
  const render = createTranscript({ write: out.write, color: out.color, diff: renderDiff });
  try {
    for await (const event of turnOnModel(agent, prompt, turn.controller.signal, command)) {
      out.observe(event);
      render(event.type === "tool-result" && turn.diffShown ? withoutDisplay(event) : event);
      if (event.type === "tool-result") [turn.interrupt, turn.diffShown] = [undefined, false];
    }
  } finally {
    turn.finished.resolve();
  }
}

/** A result whose diff the approval question already showed. */
function withoutDisplay(event: Extract<AgentEvent, { type: "tool-result" }>): AgentEvent {
  const { display: _shown, ...rest } = event;
  return rest;
}
