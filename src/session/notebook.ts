import { z } from "zod";

export const todoStatuses = ["pending", "in_progress", "completed", "blocked"] as const;
export type TodoStatus = (typeof todoStatuses)[number];

export const todoSchema = z.object({
  content: z.string().trim().min(1),
  status: z.enum(todoStatuses),
  /** Why a task is blocked, or anything worth keeping next to it. */
  note: z.string().optional(),
});
export type Todo = z.infer<typeof todoSchema>;

/** State kept outside the transcript, saved with the session (`notebook.todos`), so compaction cannot lose it. */
export const notebookSchema = z.object({ todos: z.array(todoSchema) });
export type Notebook = z.infer<typeof notebookSchema>;

export const emptyNotebook = (): Notebook => ({ todos: [] });

export const todoMarks: Record<TodoStatus, string> = { completed: "[x]", in_progress: "[~]", pending: "[ ]", blocked: "[!]" };

/** One task as a line: `[~] content — note`. Shared by the model's view and the person's panel. */
export const todoLine = (todo: Todo): string => `${todoMarks[todo.status]} ${todo.content}${todo.note ? ` — ${todo.note}` : ""}`;

export type TodoCounts = Record<TodoStatus, number> & { total: number };

export function countTodos(todos: readonly Todo[]): TodoCounts {
  const counts: TodoCounts = { pending: 0, in_progress: 0, completed: 0, blocked: 0, total: todos.length };
  for (const todo of todos) counts[todo.status]++;
  return counts;
}
