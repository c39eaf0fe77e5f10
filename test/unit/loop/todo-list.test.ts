import { describe, expect, test } from "bun:test";
import { memorySession } from "../../support/memory-session.ts";
import { run } from "../../../src/loop/run.ts";
import { notebookSchema, emptyNotebook, type Todo } from "../../../src/session/notebook.ts";
import type { AgentEvent } from "../../../src/loop/events.ts";
import type { AssistantMessage } from "../../../src/session/messages.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import type { ModelStream, RequestBody } from "../../../src/wire/model-stream.ts";
import { createTodoWriteTool } from "../../../src/tools/notes/todo-write.ts";
import { todoTrailer } from "../../../src/context/todo-trailer.ts";
import { renderTodoPanel } from "../../../src/ui/todo-panel.ts";
import { noSecrets } from "../../support/no-secrets.ts";

const write = async (todos: unknown[]) => {
  const notebook = emptyNotebook();
  const out = await createTodoWriteTool(notebook).run({ todos }, { root: "/", signal: new AbortController().signal, env: {} });
  return { notebook, output: out.output };
};

const four: Todo[] = [
  { content: "read the parser", status: "completed" },
  { content: "fix the off-by-one", status: "in_progress" },
  { content: "add a test", status: "pending" },
  { content: "update the docs", status: "blocked", note: "waiting for the API name" },
];

describe("todo_write", () => {
  test("replaces the whole list and reports progress", async () => {
    const { notebook, output } = await write(four);
    expect(notebook.todos).toEqual(four);
    expect(output).toBe("Task list saved: 1/4 completed, 1 in progress, 1 blocked.");
    expect((await write([])).output).toBe("Task list cleared.");
  });

  test("warns about two tasks in progress", async () => {
    const { output } = await write([
      { content: "a", status: "in_progress" },
      { content: "b", status: "in_progress" },
    ]);
    expect(output).toBe("Task list saved: 0/2 completed, 2 in progress.\nWarning: 2 tasks are in progress; keep exactly one in progress at a time.");
  });

  test("warns when nothing is in progress while work remains", async () => {
    const { output } = await write([
      { content: "a", status: "completed" },
      { content: "b", status: "pending" },
    ]);
    expect(output).toBe(
      "Task list saved: 1/2 completed.\nWarning: nothing is in progress while 1 task remains; mark the one you are working on in_progress.",
    );
    // All done: nothing to warn about.
    expect((await write([{ content: "a", status: "completed" }])).output).toBe("Task list saved: 1/1 completed.");
  });

  test("warns about a blocked task without a note (an empty note counts as none)", async () => {
    const { notebook, output } = await write([
      { content: "a", status: "in_progress" },
      { content: "deploy", status: "blocked", note: "  " },
    ]);
    expect(output.split("\n").at(-1)).toBe('Warning: blocked task "deploy" has no note; say what blocks it.');
    expect(notebook.todos[1]).toEqual({ content: "deploy", status: "blocked" });
  });

  test("the schema rejects an unknown status, and the notebook round-trips through JSON", () => {
    expect(createTodoWriteTool(emptyNotebook()).schema.safeParse({ todos: [{ content: "a", status: "done" }] }).success).toBe(false);
    const parsed = notebookSchema.safeParse(JSON.parse(JSON.stringify({ todos: four })));
    expect(parsed.success && parsed.data.todos).toEqual(four);
  });
});

describe("task list rendering", () => {
  test("panel: a 24-wide bar proportional to completed tasks, counts, then one line per task", () => {
    expect(renderTodoPanel(four)).toBe(
      [
        "tasks ######.................. 1/4 1 blocked",
        "  [x] read the parser",
        "  [~] fix the off-by-one",
        "  [ ] add a test",
        "  [!] update the docs — waiting for the API name",
      ].join("\n"),
    );
    expect(renderTodoPanel([{ content: "a", status: "completed" }, { content: "b", status: "completed" }]).split("\n")[0]).toBe(
      "tasks ######################## 2/2",
    );
    expect(renderTodoPanel([])).toBe("");
    expect(renderTodoPanel(four, { color: true })).toContain("\x1b[");
  });

  test("trailer: the list for the model, undefined when there is none", () => {
    expect(todoTrailer(four)).toBe(
      [
        "Your task list (1/4 completed; replace it with todo_write as you progress):",
        "[x] read the parser",
        "[~] fix the off-by-one",
        "[ ] add a test",
        "[!] update the docs — waiting for the API name",
      ].join("\n"),
    );
    expect(todoTrailer([])).toBeUndefined();
  });
});

test("a todo_write on step one is in the request of step two, after the history, with the instructions unchanged", async () => {
  const notebook = emptyNotebook();
  const bodies: RequestBody[] = [];
  const replies: AssistantMessage[] = [
    {
      role: "assistant",
      model: "m",
      parts: [{ type: "tool-call", callId: "call_1", name: "todo_write", arguments: JSON.stringify({ todos: four }) }],
    },
    { role: "assistant", model: "m", parts: [{ type: "text", text: "done" }] },
  ];
  const stream: ModelStream = async function* (body) {
    bodies.push(body);
    yield { type: "done", message: replies[bodies.length - 1]! };
  };
  const events: AgentEvent[] = [];
  const session = memorySession([{ role: "user", text: "fix the parser" }]);
  for await (const event of run({
    messages: session.messages,
    commit: session.commit,
    tools: [createTodoWriteTool(notebook)],
    stream,
    // As the lead wires it: instructions fixed per session, the trailer appended after the history.
    buildRequest: session.recording((messages) => {
      const trailer = todoTrailer(notebook.todos);
      const input = serialiseInput(messages, { model: "m" });
      if (trailer) input.push({ type: "message", role: "developer", content: trailer });
      return { body: { model: "m", instructions: "be useful", input, stream: true } };
    }),
    authorize: async () => ({ allowed: true }),
    root: "/",
    ...noSecrets,
    maxSteps: 5,
    signal: new AbortController().signal,
  })) events.push(event);

  expect(events.at(-1)).toMatchObject({ type: "end", status: "done", steps: 2 });
  expect(bodies[1]!.instructions).toBe(bodies[0]!.instructions!);
  expect(JSON.stringify(bodies[0]!.input)).not.toContain("Your task list");
  const input = bodies[1]!.input as { role?: string; content?: unknown }[];
  expect(input.at(-1)).toEqual({ type: "message", role: "developer", content: todoTrailer(four) } as never);
  // The earlier items are the cached prefix: byte-identical to step one's input.
  expect(JSON.stringify(input.slice(0, 1))).toBe(JSON.stringify(bodies[0]!.input));
});
