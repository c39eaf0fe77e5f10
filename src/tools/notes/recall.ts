import { z } from "zod";
import { defineTool } from "../tool.ts";
import { noteLine } from "../../store/memory-entries.ts";
import type { MemoryStore } from "../../store/memory-store.ts";

const schema = z.object({
  query: z.string(),
});

/** `recall`: searches the project's notes; every note returned counts as used. */
export const createRecallTool = (store: MemoryStore) =>
  defineTool({
    name: "recall",
    description:
      'Find the notes from earlier sessions holding every word of `query` (any case), e.g. "test command"; ' +
      "use it before working something out again.",
    schema,
    kind: "meta",
    subject: () => ({}),
    async run({ query }) {
      if (query.trim() === "") return { output: "The query is empty; give one or more words to look for.", isError: true };
      const { matches, total } = await store.recall(query);
      if (total === 0) return { output: `No note contains all of: ${query.trim()}` };
      const lines = matches.map(noteLine);
      if (total > matches.length) lines.push(`(${total - matches.length} more matched; add words to narrow the query)`);
      return { output: lines.join("\n") };
    },
  });
