import { z } from "zod";
import { notebookSchema } from "../session/notebook.ts";
import { callLogSchema, messageSchema } from "../session/message-schema.ts";
import { sessionFacts } from "./session-facts.ts";

/** Sessions before logs (schema 1) were one JSON document each; read only to convert them. */
export const SCHEMA_VERSION = 1;

/**
 * What listing reads: the fields written first in every file (see session-file.ts), derived from
 * the transcript at save time so `/sessions` never has to parse one.
 */
export const sessionHeaderSchema = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  ...sessionFacts,
  /** Counts the writes of this file; a save checks it to notice another process wrote in between (absent in older files: 0). */
  revision: z.number().int().nonnegative().optional(),
});
export type SessionHeader = z.infer<typeof sessionHeaderSchema>;

export const sessionFileSchema = sessionHeaderSchema.extend({
  messages: z.array(messageSchema),
  notebook: notebookSchema,
  callLog: callLogSchema,
  /** The window learned from a `context_length_exceeded` (for that model), so a resumed session does not overflow again. */
  contextWindow: z.object({ model: z.string(), tokens: z.number().int().positive() }).optional(),
});
export type SessionFile = z.infer<typeof sessionFileSchema>;

