import pc from "picocolors";
import type { Agent } from "../agent/agent.ts";
import { helpMenu, indentedColumns } from "./slash-commands.ts";
import { sessionCommands } from "./session-commands.ts";
import { memoryCommands, showTodoPanel } from "./memory-commands.ts";
import { registryCommands } from "./registry-commands.ts";
import { modelCommand } from "./model-command.ts";
import { planCommand } from "./plan-command.ts";
import { statusCommand } from "./status-command.ts";
import { mcpCommand } from "./mcp-command.ts";
import { undoCommands } from "./undo-commands.ts";
import { jobsCommand } from "./jobs-command.ts";
import type { ReplCommand, ReplContext } from "./repl-command.ts";

export type { ReplCommand, ReplContext };

const KEYS = [
  ["Esc", "aborts the turn (or a /compact or /memory waiting on the model); twice at an empty prompt, /rewind"],
  ["Ctrl-C", "stops a running command (twice at the prompt quits)"],
  ["Ctrl-D", "quits"],
  ["Tab", "completes /commands and @paths"],
  ["↑ ↓", "pick from the / menu (Tab takes the pick, Enter runs it)"],
] as const;


const coreCommands: ReplCommand[] = [
  {
    name: "help",
    summary: "show this menu",
    run: async (ctx) => {
      const saved = await ctx.current.services.commands.list();
      const rows = saved.map((c) => [`/${c.name}`, c.scope, c.description]);
      const savedMenu = rows.length ? `\n\nSaved commands (docs/commands.md)\n${indentedColumns(rows, ctx.columns())}` : "";
      ctx.print(`${helpMenu(COMMANDS, ctx.columns())}${savedMenu}\n\nKeys\n${indentedColumns(KEYS, ctx.columns())}`);
    },
  },
  modelCommand,
  planCommand,
  statusCommand,
  mcpCommand,
  jobsCommand,
  {
    name: "tools",
    summary: "list the tools the model can use",
    run: async (ctx) => {
      const rows = ctx.current.agent.prompt.tools.map((t) => [t.name, t.kind, t.description.split(/(?<=\.)\s/)[0]!]);
      ctx.print(indentedColumns(rows, ctx.columns()));
    },
  },
  { name: "quit", aliases: ["exit", "q"], summary: "quit shiro", run: async () => "exit" },
];

/** The one table behind the parser, /help and tab completion. */
export const COMMANDS: ReplCommand[] = [...coreCommands, ...sessionCommands, ...undoCommands, ...memoryCommands, ...registryCommands];

/** Every name and alias the table answers to: a saved command cannot take one (src/commands/). */
export const builtinNames = (): string[] => COMMANDS.flatMap((command) => [command.name, ...(command.aliases ?? [])]);

/** `context 42%`, amber from two thirds of the compaction threshold, red from 90%. */
export function contextLine(agent: Pick<Agent, "contextUse">, c: ReturnType<typeof pc.createColors>): string {
  const use = agent.contextUse();
  const text = `context ${use.percent}%`;
  return use.level === "red" ? c.red(text) : use.level === "amber" ? c.yellow(text) : c.dim(text);
}

/** Printed above the prompt after every turn: the task list while one exists, and the context meter. */
export async function showBeforePrompt(ctx: ReplContext): Promise<void> {
  showTodoPanel(ctx);
  const use = ctx.current.agent.contextUse();
  if (use.level !== "normal") ctx.print(contextLine(ctx.current.agent, pc.createColors(ctx.color)) + (use.percent >= 100 ? " — the next request will be compacted" : ""));
}
