import type pc from "picocolors";
import type { LineQueue, Queued } from "./line-queue.ts";
import type { createLineRunner } from "./line-runner.ts";
import type { createLivePrompt } from "./live-prompt.ts";
import type { ReplCommand } from "./repl-command.ts";
import type { Lifecycle } from "./repl-lifecycle.ts";
import { parseSlash } from "./slash-commands.ts";
import type { WorkSlot } from "./work-slot.ts";

/** A slash command's status line shows only if it takes longer than this (most answer at once). */
const COMMAND_STATUS_DELAY_MS = 300;

type Dispatch = {
  live: ReturnType<typeof createLivePrompt>;
  slot: WorkSlot;
  queue: LineQueue;
  runner: ReturnType<typeof createLineRunner>;
  lifecycle: Lifecycle;
  table: () => ReplCommand[];
  /** Puts a refused line back in the prompt for Enter later. */
  putBack: (line: string) => void;
  print: (text: string) => void;
  c: ReturnType<typeof pc.createColors>;
};

/** Where an entered line goes: run now, queued behind what runs, or (a command on the turns, mid-turn) refused at once. */
export function createLineDispatch(d: Dispatch) {
  const start = (line: Queued): Promise<void> => {
    d.live.echo(line.shown);
    return submit(line.text);
  };

  /** Runs a line, then each line queued meanwhile; while busy, typed lines wait. `quiet`: a key's own command (no history). */
  async function submit(line: string, quiet = false): Promise<void> {
    d.slot.busy = true;
    const slash = line.trimStart().startsWith("/");
    d.live.busy(slash ? { kind: "command", name: line.trim().split(/\s/)[0]! } : undefined, slash ? COMMAND_STATUS_DELAY_MS : 0);
    try {
      if ((await d.runner.runLine(line, quiet)) === "exit") return d.lifecycle.close();
    } catch (err) {
      d.print(d.c.red(`error: ${(err as Error)?.message ?? String(err)}`));
    }
    if (d.lifecycle.closed) return;
    const next = d.queue.next();
    if (next !== undefined) return start(next);
    d.slot.busy = false;
    d.live.idle();
  }

  /** A command that acts on the turns (/undo) typed while one runs: said no to at once, not queued behind it. */
  function refusedNow(line: string): boolean {
    if (!d.slot.turn || !line.trimStart().startsWith("/")) return false;
    const parsed = parseSlash(line, d.table());
    if (parsed.kind !== "command" || !parsed.command.notDuringTurn) return false;
    d.print(d.c.yellow(`! /${parsed.command.name} waits for the turn to end (Esc stops it); it stays in the prompt for Enter then`));
    d.putBack(line.trim());
    return true;
  }

  return {
    start,
    submit,
    /** The live prompt's Enter. */
    entered: (text: string, shown: string) => (refusedNow(text) ? undefined : d.slot.busy ? d.queue.push({ text, shown }) : void start({ text, shown })),
  };
}
