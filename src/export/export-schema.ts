import { z } from "zod";
import { usageSchema } from "../session/message-schema.ts";
import { todoSchema } from "../session/notebook.ts";
import { RUN_STATES } from "../session/run-state.ts";

/**
 * The JSON shape of `shiro export --format json` (docs/export.md), which `shiro import` reads back.
 * `version` changes only when a reader of the old shape would misread the new one; fields may be
 * added within a version. Fields marked "for readers" are worked out from the others when exporting
 * and ignored by an import.
 */
export const EXPORT_FORMAT = "shiro-session";
export const EXPORT_VERSION = 1;

/** An image, base64, as a tool returned it or a person gave it. */
const imageSchema = z.object({ mediaType: z.string(), data: z.string() });

const userSchema = z.object({
  role: z.literal("user"),
  text: z.string(),
  /** A prompt that began a turn: its number and when; absent for a hook's words to the model. */
  turn: z.number().int().positive().optional(),
  at: z.string().optional(),
  images: z.array(imageSchema).optional(),
});

const partSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reasoning"), summary: z.array(z.string()) }),
  z.object({ type: z.literal("text"), text: z.string(), phase: z.enum(["commentary", "final_answer"]).optional() }),
  z.object({ type: z.literal("tool-call"), callId: z.string(), name: z.string(), arguments: z.string() }),
]);

const assistantSchema = z.object({
  role: z.literal("assistant"),
  model: z.string(),
  parts: z.array(partSchema),
  usage: usageSchema.optional(),
  /** For readers: what this answer cost, null for a model without a known price. */
  costUsd: z.number().nullable().optional(),
  incomplete: z.string().optional(),
  otherItems: z.array(z.string()).optional(),
});

const resultSchema = z.object({
  callId: z.string(),
  output: z.string(),
  isError: z.boolean().optional(),
  images: z.array(imageSchema).optional(),
  /** For readers: the tool's name, whether the call was denied, its outcome line, and a diff of what it wrote. */
  tool: z.string().optional(),
  denied: z.boolean().optional(),
  outcome: z.string().optional(),
  diff: z.string().optional(),
  /** The child agent the call ran; its conversation is among the session's `children`. */
  child: z.object({ sessionId: z.string(), agent: z.string() }).optional(),
});

const messageSchema = z.discriminatedUnion("role", [
  userSchema,
  assistantSchema,
  z.object({ role: z.literal("tool"), results: z.array(resultSchema) }),
  z.object({ role: z.literal("compaction"), summary: z.string() }),
]);

const totalsSchema = z.object({ usage: usageSchema, costUsd: z.number().nullable() });

const sessionSchema = z.object({
  id: z.string(),
  title: z.string(),
  cwd: z.string(),
  model: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: z.enum(RUN_STATES),
  forkedFrom: z.object({ id: z.string(), events: z.number() }).optional(),
  importedFrom: z.object({ id: z.string(), exportedAt: z.string() }).optional(),
});

type ExportedSessionShape = {
  session: z.infer<typeof sessionSchema>;
  totals: z.infer<typeof totalsSchema>;
  todos: z.infer<typeof todoSchema>[];
  messages: z.infer<typeof messageSchema>[];
  children: ExportedSessionShape[];
};

const bodyFields = {
  session: sessionSchema,
  totals: totalsSchema,
  todos: z.array(todoSchema),
  messages: z.array(messageSchema),
  /** The sessions of agents this one started, each the same shape. */
  children: z.array(z.lazy(() => exportedSessionSchema)),
};

/** One session's conversation. */
const exportedSessionSchema: z.ZodType<ExportedSessionShape> = z.object(bodyFields);

export const sessionExportSchema = z.object({ format: z.literal(EXPORT_FORMAT), version: z.literal(EXPORT_VERSION), exportedAt: z.string(), shiro: z.string(), ...bodyFields });

export type ExportImage = z.infer<typeof imageSchema>;
export type ExportMessage = z.infer<typeof messageSchema>;
export type ExportResult = z.infer<typeof resultSchema>;
export type ExportedSession = ExportedSessionShape;
export type SessionExport = z.infer<typeof sessionExportSchema>;
