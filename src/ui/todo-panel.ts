import pc from "picocolors";
import { countTodos, todoLine, type Todo, type TodoStatus } from "../session/notebook.ts";

export const TODO_BAR_WIDTH = 24;

/**
 * `tasks ######.................. 1/4 1 blocked` then one line per task. The bar is proportional
 * to completed tasks. Empty string when there is no list (nothing to print above the prompt).
 */
export function renderTodoPanel(todos: readonly Todo[], opts: { color?: boolean } = {}): string {
  if (todos.length === 0) return "";
  const c = pc.createColors(opts.color ?? false);
  const counts = countTodos(todos);
  const filled = Math.round((TODO_BAR_WIDTH * counts.completed) / counts.total);
  const bar = c.green("#".repeat(filled)) + c.dim(".".repeat(TODO_BAR_WIDTH - filled));
  const blocked = counts.blocked ? ` ${c.red(`${counts.blocked} blocked`)}` : "";
  const paint: Record<TodoStatus, (s: string) => string> = { completed: c.dim, in_progress: c.bold, pending: (s) => s, blocked: c.red };
  return [`tasks ${bar} ${counts.completed}/${counts.total}${blocked}`, ...todos.map((t) => `  ${paint[t.status](todoLine(t))}`)].join("\n");
}
