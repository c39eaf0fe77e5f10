import { mergeMemory } from "../context/merge-memory.ts";
import { renderNotesTable } from "../ui/notes-table.ts";
import { renderTodoPanel } from "../ui/todo-panel.ts";
import type { ReplCommand, ReplContext } from "./repl-command.ts";

/**
 * Prints the task list while one exists; false when there is none. Shown above the prompt after every
 * turn, at start and after /resume, so a continued session shows its list.
 */
export function showTodoPanel(ctx: ReplContext): boolean {
  const panel = renderTodoPanel(ctx.current.agent.session.notebook.todos, { color: ctx.color });
  if (panel) ctx.print(panel);
  return panel !== "";
}

const MEMORY_OFF = "project memory is off (--no-memory)";

export const memoryCommands: ReplCommand[] = [
  {
    name: "notes",
    summary: "what shiro remembers about this project",
    run: async (ctx) => {
      const memory = ctx.current.agent.prompt.memory;
      ctx.print(memory ? renderNotesTable(await memory.list(), { color: ctx.color, width: ctx.columns() - 1 }) : MEMORY_OFF);
    },
  },
  {
    name: "memory",
    summary: "have the model merge overlapping notes (recalled notes stay verbatim)",
    run: async (ctx) => {
      const memory = ctx.current.agent.prompt.memory;
      if (!memory) return ctx.print(MEMORY_OFF);
      const outcome = await mergeMemory(memory, (prompt) => ctx.current.agent.ask(prompt, ctx.signal));
      ctx.print(outcome.status === "merged" ? `merged ${outcome.before} notes into ${outcome.after}` : outcome.message);
    },
  },
  {
    name: "todos",
    summary: "the current task list",
    run: async (ctx) => {
      if (!showTodoPanel(ctx)) ctx.print("no task list");
    },
  },
];
