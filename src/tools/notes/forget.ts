import { z } from "zod";
import { defineTool } from "../tool.ts";
import { noteLine } from "../../store/memory-entries.ts";
import type { MemoryStore } from "../../store/memory-store.ts";
import { plural } from "../../text/plural.ts";

const schema = z.object({
  text: z.string(),
});

/** `forget`: removes notes that turned out wrong or obsolete. */
export const createForgetTool = (store: MemoryStore) =>
  defineTool({
    name: "forget",
    description:
      "Delete the notes containing `text` (any case) that are wrong or obsolete; recall first to see which match.",
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
