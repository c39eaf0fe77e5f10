import { z } from "zod";
import { defineTool } from "../tool.ts";
import { MAX_ENTRY_CHARS, memoryKinds } from "../../store/memory-entries.ts";
import type { MemoryStore } from "../../store/memory-store.ts";

const schema = z.object({
  kind: z.enum(memoryKinds).describe("fact: how the project is; decision: a choice and why; gotcha: a trap; command: how to build/test/run"),
  text: z.string(),
});

/** `remember`: keeps a durable note about the project for later sessions. */
export const createRememberTool = (store: MemoryStore) =>
  defineTool({
    name: "remember",
    description:
      "Save a note on this project for future sessions: what took effort to learn and stays true, not task progress (todo_write). " +
      `\`text\`: one line, at most ${MAX_ENTRY_CHARS} characters, that makes sense without this conversation.`,
    schema,
    kind: "meta",
    subject: () => ({}),
    async run({ kind, text }) {
      const result = await store.add(kind, text);
      if (!result.ok) return { output: result.message, isError: true };
      return { output: `Remembered (${result.entry.kind}): ${result.entry.text}` };
    },
  });
