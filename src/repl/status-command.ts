import { indentedColumns } from "./slash-commands.ts";
import type { ReplCommand } from "./repl-command.ts";

/**
 * `/status`: the session, its model, how full the context is, and the instruction files in force —
 * those read at the start and the subfolders' that joined since (a tool touched their folder).
 */
export const statusCommand: ReplCommand = {
  name: "status",
  summary: "the session, model, context and instruction files",
  run: async (ctx) => {
    const { agent } = ctx.current;
    const files = agent.prompt.files;
    const rows = [
      ["session", agent.session.id],
      ["model", agent.session.model],
      ["context", `${agent.contextUse().percent}%`],
      ...(files.length ? files.map((file, i) => [i === 0 ? "instructions" : "", file]) : [["instructions", "no AGENTS.md or CLAUDE.md in force"]]),
    ];
    ctx.print(indentedColumns(rows, ctx.columns()));
  },
};
