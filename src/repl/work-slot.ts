import { newTurn, type Turn } from "./repl-turn.ts";

/**
 * What the REPL is doing now, one thing at a time: a turn (Esc and Ctrl-C reach it), a slash command
 * waiting on the model (Esc cancels it), or a line being handled at all (`busy`: typed lines queue).
 */
export type WorkSlot = {
  readonly turn: Turn | undefined;
  readonly command: AbortController | undefined;
  busy: boolean;
  /** Runs a turn in the slot, which it leaves when done. */
  withTurn(run: (turn: Turn) => Promise<void>): Promise<void>;
  /** Runs a slash command with a signal Esc aborts. */
  withCommand<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T>;
};

export function createWorkSlot(): WorkSlot {
  let turn: Turn | undefined;
  let command: AbortController | undefined;
  return {
    get turn() {
      return turn;
    },
    get command() {
      return command;
    },
    busy: false,
    async withTurn(run) {
      turn = newTurn();
      try {
        await run(turn);
      } finally {
        turn = undefined;
      }
    },
    async withCommand(run) {
      command = new AbortController();
      try {
        return await run(command.signal);
      } finally {
        command = undefined;
      }
    },
  };
}
