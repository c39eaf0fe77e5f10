import { z } from "zod";
import { usageSchema } from "../session/message-schema.ts";

/** What a listing says of any session, in the index and in a schema-1 file's header alike. */
export const sessionFacts = {
  id: z.string(),
  cwd: z.string(),
  model: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  usage: usageSchema,
  /** null when a model of the session has no known price. */
  costUsd: z.number().nullable(),
};
