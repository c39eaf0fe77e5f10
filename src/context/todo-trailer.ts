import { countTodos, todoLine, type Todo } from "../session/notebook.ts";

/**
 * The task list as the model sees it on every step, sent after the history (not in the instructions)
 * so the cached prefix of the request survives a `todo_write`. Undefined when there is no list.
 */
export function todoTrailer(todos: readonly Todo[]): string | undefined {
  if (todos.length === 0) return undefined;
  const c = countTodos(todos);
  const header = `Your task list (${c.completed}/${c.total} completed; replace it with todo_write as you progress):`;
  return [header, ...todos.map(todoLine)].join("\n");
}
