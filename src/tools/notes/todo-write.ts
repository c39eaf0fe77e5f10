import { z } from "zod";
import { defineTool } from "../tool.ts";
import { countTodos, todoSchema, type Notebook, type Todo } from "../../session/notebook.ts";

const schema = z.object({
  todos: z.array(todoSchema),
});

/** `todo_write`: replaces the session's task list, which the model sees on every step. */
export const createTodoWriteTool = (notebook: Pick<Notebook, "todos">) =>
  defineTool({
    name: "todo_write",
    description:
      "Replace your task list (the whole list, in order; [] clears it) for work of three or more steps: mark a task in_progress " +
      "(one at a time) before starting it, completed once done, blocked with a note saying why. You see it every step, even after compaction.",
    schema,
    kind: "meta",
    subject: () => ({}),
    async run({ todos }) {
      notebook.todos = todos.map(({ content, status, note }) => ({ content, status, ...(note?.trim() ? { note: note.trim() } : {}) }));
      return { output: [summarise(notebook.todos), ...todoWarnings(notebook.todos)].join("\n") };
    },
  });

function summarise(todos: readonly Todo[]): string {
  if (todos.length === 0) return "Task list cleared.";
  const c = countTodos(todos);
  const extra = [c.in_progress && `${c.in_progress} in progress`, c.blocked && `${c.blocked} blocked`].filter(Boolean);
  return `Task list saved: ${c.completed}/${c.total} completed${extra.length ? `, ${extra.join(", ")}` : ""}.`;
}

/** What is off about a list, so the model fixes it on its next step. */
function todoWarnings(todos: readonly Todo[]): string[] {
  const c = countTodos(todos);
  const warnings: string[] = [];
  if (c.in_progress > 1) warnings.push(`Warning: ${c.in_progress} tasks are in progress; keep exactly one in progress at a time.`);
  if (c.in_progress === 0 && c.pending > 0) {
    warnings.push(`Warning: nothing is in progress while ${c.pending} ${c.pending === 1 ? "task remains" : "tasks remain"}; mark the one you are working on in_progress.`);
  }
  for (const todo of todos) {
    if (todo.status === "blocked" && !todo.note) warnings.push(`Warning: blocked task "${todo.content}" has no note; say what blocks it.`);
  }
  return warnings;
}
