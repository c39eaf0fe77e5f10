import { turnLine, undoneLines } from "../checkpoint/undo-report.ts";
import type { ReplCommand, ReplContext } from "./repl-command.ts";
import { typedPrompt } from "./typed-prompt.ts";

const FORCE = "--force";

/** `--force` or nothing; anything else is a usage line printed, and the undo does not happen. */
function forceOf(ctx: ReplContext, name: string, arg: string): boolean | undefined {
  if (arg === "" || arg === FORCE) return arg === FORCE;
  ctx.print(`usage: /${name} [${FORCE}]`);
  return undefined;
}

/**
 * Undoes `turn` (the newest when undefined) and every later one, and says what came back. The prompt
 * of the turn gone back to returns to the prompt line, as typed, so it can be edited and sent again.
 */
async function undoFrom(ctx: ReplContext, turn: number | undefined, force: boolean, retry: string): Promise<void> {
  // Read before the undo: it takes these turns out of the session.
  const prompts = new Map(ctx.current.agent.session.turns.map((t) => [t.turn, t.text]));
  const done = await ctx.current.agent.undo(turn, force);
  if (!done.ok) {
    ctx.print(`! ${done.message}`);
    // The core names `undo --force`; here the way to say it is the command just typed.
    if (done.conflicts?.length && !force) ctx.print(`  (here: ${retry} ${FORCE})`);
    return;
  }
  ctx.print(undoneLines(done).join("\n"));
  const prompt = prompts.get(done.turns[0]!);
  if (prompt !== undefined) ctx.refill(typedPrompt(prompt));
}

export const REWIND = "rewind";

export const undoCommands: ReplCommand[] = [
  {
    name: "undo",
    args: `[${FORCE}]`,
    summary: "put back the files the last turn changed and take it out of the conversation",
    notDuringTurn: true,
    run: async (ctx, arg) => {
      const force = forceOf(ctx, "undo", arg);
      if (force !== undefined) await undoFrom(ctx, undefined, force, "/undo");
    },
  },
  {
    name: REWIND,
    args: `[${FORCE}]`,
    summary: "pick a turn to go back to before (also Esc Esc at an empty prompt)",
    notDuringTurn: true,
    run: async (ctx, arg) => {
      const force = forceOf(ctx, REWIND, arg);
      if (force === undefined) return;
      const turns = ctx.current.agent.undoableTurns().reverse();
      if (!turns.length) return ctx.print("no turn to rewind in this session yet");
      const width = ctx.columns();
      const chosen = await ctx.pick({
        title: "rewind to before which turn? it and every turn after it are undone",
        rows: turns.map((row) => turnLine(row, width)),
        hint: "↑↓ choose · Enter undoes · Esc cancels",
      });
      if (chosen !== undefined) await undoFrom(ctx, turns[chosen]!.turn, force, `/${REWIND}`);
    },
  },
];
