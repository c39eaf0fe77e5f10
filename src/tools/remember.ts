import { z } from "zod";
import { defineTool } from "./tool.ts";
import { MAX_ENTRY_CHARS, memoryKinds } from "../store/memory-entries.ts";
import type { MemoryStore } from "../store/memory-store.ts";

const schema = z.object({
  kind: z.enum(memoryKinds).describe("fact (how the project is), decision (a choice and its reason), gotcha (a trap), command (how to build/test/run)"),
  text: z.string().describe(`One self-contained line, at most ${MAX_ENTRY_CHARS} characters.`),
});

/** `remember`: keeps a durable note about the project for later sessions. */
export const createRememberTool = (store: MemoryStore) =>
  defineTool({
    name: "remember",
    description:
      "Record a durable note about this project for future sessions (they start with your most used notes). " +
      "Save what took effort to learn and will stay true: how to build or test, conventions, decisions with their reason, traps. " +
      "Not for progress on the current task (use todo_write). Write one self-contained line that makes sense without this conversation.",
    schema,
    kind: "meta",
    subject: () => ({}),
    async run({ kind, text }) {
      const result = await store.add(kind, text);
      if (!result.ok) return { output: result.message, isError: true };
      return { output: `Remembered (${result.entry.kind}): ${result.entry.text}` };
    },
  });
