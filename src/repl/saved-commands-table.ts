import pc from "picocolors";
import type { CommandTurn, SavedCommands } from "../commands/saved-commands.ts";
import type { SavedCommand } from "../commands/load-commands.ts";
import type { ReplCommand } from "./repl-command.ts";

export type SavedTable = {
  /** The saved commands as rows of the slash table, as last read. */
  rows(): readonly ReplCommand[];
  /** Reads the commands folders again if they changed; `changed` is called when the rows did (after the first read). */
  refresh(): Promise<void>;
};

type Options = {
  changed: () => void;
  /** Runs the prompt a command made as a turn, with its model and tools when it names them. */
  play: (prompt: string, turn: CommandTurn) => Promise<void>;
};

/**
 * Saved commands beside the built-in ones: in the `/` menu (the words they take, from `argument-hint`,
 * after the name; their description after whose they are, user or project), in completion and run
 * like any other. A file changed or added is read at the next look, without restarting.
 */
export function savedCommandsTable(commands: SavedCommands, opts: Options): SavedTable {
  let seen: readonly SavedCommand[] | undefined;
  let rows: ReplCommand[] = [];
  const row = (command: SavedCommand): ReplCommand => ({
    name: command.name,
    ...(command.argumentHint ? { args: command.argumentHint } : {}),
    summary: `${command.scope.padEnd(7)}  ${command.description || "(no description)"}`,
    run: async (ctx, arg) => {
      const c = pc.createColors(ctx.color);
      const prepared = await commands.prepare(command, arg, { show: ctx.print, confirm: ctx.confirm, signal: ctx.signal, calls: ctx.current.agent.commandCalls });
      if (!prepared.ok) return ctx.print(c.yellow(`! ${prepared.message}`));
      for (const ran of prepared.ran) ctx.print(c.dim(`· ran ${ran}`));
      if (prepared.attached.length) ctx.print(c.dim(`· attached ${prepared.attached.join(", ")}`));
      for (const warning of prepared.warnings) ctx.print(c.yellow(`! ${warning}`));
      const { model, tools, images } = prepared;
      if (model) ctx.print(c.dim(`· this turn goes to ${model}`));
      if (tools) ctx.print(c.dim(`· this turn offers only ${tools.entries.join(", ")}${tools.allows.length ? `; runs without asking: ${tools.allows.map((a) => a.pattern).join(", ")}` : ""}`));
      await opts.play(prepared.prompt, { ...(model ? { model } : {}), ...(tools ? { tools } : {}), ...(images ? { images } : {}) });
    },
  });
  return {
    rows: () => rows,
    async refresh() {
      const listed = await commands.list();
      if (listed === seen) return;
      // The first read is before anything is drawn: nothing to draw again.
      const first = seen === undefined;
      seen = listed;
      rows = listed.map(row);
      if (!first) opts.changed();
    },
  };
}
