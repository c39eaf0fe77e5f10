import { z } from "zod";
import { defineTool } from "./tool.ts";
import { noteLine } from "../store/memory-entries.ts";
import type { MemoryStore } from "../store/memory-store.ts";
import { plural } from "../text/plural.ts";

const schema = z.object({
  text: z.string().describe("Every note containing this text (case-insensitive) is removed."),
});

/** `forget`: removes notes that turned out wrong or obsolete. */
export const createForgetTool = (store: MemoryStore) =>
  defineTool({
    name: "forget",
    description:
      "Remove project notes that are wrong or obsolete: every note containing the given text (case-insensitive) is deleted. " +
      "Use recall first to see what would match.",
    schema,
    kind: "meta",
    subject: () => ({}),
    async run({ text }) {
      if (text.trim() === "") return { output: "The text is empty; give part of the note to remove.", isError: true };
      const removed = await store.forget(text);
      if (removed.length === 0) return { output: `No note contains: ${text.trim()}` };
      return { output: [`Forgot ${plural(removed.length, "note")}:`, ...removed.map(noteLine)].join("\n") };
    },
  });
