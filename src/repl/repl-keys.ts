import type pc from "picocolors";
import { createDoubleEscape } from "./double-escape.ts";
import type { LineQueue } from "./line-queue.ts";
import type { Turn } from "./repl-turn.ts";
import { REWIND } from "./undo-commands.ts";
import type { WorkSlot } from "./work-slot.ts";

// Ctrl-C twice within this long at an idle, empty prompt quits.
const QUIT_WINDOW_MS = 2000;

type Keys = {
  slot: WorkSlot;
  queue: LineQueue;
  draft: () => string;
  clearDraft: () => void;
  /** Drops the question a turn waits on (its answer is now "stopped"). */
  dropQuestion: () => void;
  print: (text: string) => void;
  c: ReturnType<typeof pc.createColors>;
  /** Runs a line as a key's own command (Esc Esc opens /rewind), not typed: no history. */
  run: (line: string) => void;
  close: () => void;
};

/** What Esc and Ctrl-C do, by what is running; it owns the memory of the last presses. */
export function createKeyActions(k: Keys) {
  let lastIdleInterrupt = 0;
  const escapes = createDoubleEscape();

  /** Esc, or Ctrl-C with no command running: stop the turn, refuse a waiting question, drop the queue (saying so). */
  function abortTurn(turn: Turn): void {
    k.queue.drop();
    turn.controller.abort();
    k.dropQuestion();
  }

  return {
    abortTurn,
    /** Any key but Esc ends a double press. */
    key: (name: string) => name !== "escape" && escapes.reset(),
    escape(): void {
      if (k.slot.turn) return abortTurn(k.slot.turn);
      if (k.slot.command) return k.slot.command.abort();
      // Counted only at rest: the Esc that stopped a turn or a command is no first press, so Esc again after it opens nothing.
      if (!k.slot.busy && k.draft() === "" && escapes.press(Date.now())) k.run(`/${REWIND}`);
    },
    interrupt(): void {
      const turn = k.slot.turn;
      // Ctrl-C stops the running command but keeps the turn; with nothing running it stops the turn.
      if (turn) return turn.interrupt ? turn.interrupt.abort() : abortTurn(turn);
      if (k.draft() !== "") return k.clearDraft();
      if (k.slot.busy) return k.print(k.c.dim("(a command is running · Esc cancels it · Ctrl-D quits)"));
      if (Date.now() - lastIdleInterrupt < QUIT_WINDOW_MS) return k.close();
      lastIdleInterrupt = Date.now();
      k.print(k.c.dim("(press Ctrl-C again to quit)"));
    },
  };
}
