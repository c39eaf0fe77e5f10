import { z } from "zod";
import type { Message, Usage } from "./messages.ts";

/**
 * zod schemas for shiro's message model (messages.ts) and the per-call log: what a session's log
 * lines carry and what a schema-1 session file held. Read back through these, never trusted as-is.
 */

export const usageSchema: z.ZodType<Usage> = z.object({
  inputTokens: z.number(),
  cachedTokens: z.number(),
  outputTokens: z.number(),
  reasoningTokens: z.number(),
});

const itemId = z.string().optional();

export const inputImageSchema = z.object({ mediaType: z.string(), data: z.string() });

const assistantPartSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reasoning"), itemId, summary: z.array(z.string()), encrypted: z.string().optional() }),
  z.object({ type: z.literal("text"), itemId, text: z.string(), phase: z.enum(["commentary", "final_answer"]).optional() }),
  z.object({ type: z.literal("tool-call"), itemId, callId: z.string(), name: z.string(), arguments: z.string() }),
]);

export const messageSchema: z.ZodType<Message> = z.discriminatedUnion("role", [
  z.object({ role: z.literal("user"), text: z.string(), images: z.array(inputImageSchema).optional() }),
  z.object({
    role: z.literal("assistant"),
    model: z.string(),
    responseId: z.string().optional(),
    usage: usageSchema.optional(),
    parts: z.array(assistantPartSchema),
    incomplete: z.string().optional(),
    otherItems: z.array(z.string()).optional(),
  }),
  z.object({
    role: z.literal("tool"),
    results: z.array(z.object({ callId: z.string(), output: z.string(), isError: z.boolean().optional(), images: z.array(inputImageSchema).optional() })),
  }),
  z.object({ role: z.literal("compaction"), summary: z.string() }),
]);


/** The instructions and tools a call was sent with; stored once per distinct content. */
export const promptSnapshotSchema = z.object({ instructions: z.string(), tools: z.array(z.unknown()) });

export const responseSummarySchema = z.object({
  status: z.enum(["completed", "incomplete", "aborted", "error"]),
  responseId: z.string().optional(),
  usage: usageSchema.optional(),
  error: z.string().optional(),
});
export type ResponseSummary = z.infer<typeof responseSummarySchema>;

export const callRecordSchema = z.object({
  model: z.string(),
  /** Every body field except instructions, tools and input. */
  params: z.record(z.string(), z.unknown()),
  /** How many session messages the request was built from. */
  messageCount: z.number().int().nonnegative(),
  /** Key into `snapshots`. */
  snapshot: z.string(),
  /** The builder was asked for a smaller request (after a context overflow). */
  harder: z.boolean().optional(),
  /** The compaction limits in force, so the same pruning can be redone. */
  limits: z.object({ threshold: z.number(), window: z.number() }).optional(),
  /** The per-step text sent after the history (the task list at that moment). */
  trailer: z.string().optional(),
  response: responseSummarySchema.optional(),
  /** The messages it was built from, once an undo has taken them out of the history. */
  history: z.array(z.lazy(() => messageSchema)).optional(),
});
export type CallRecord = z.infer<typeof callRecordSchema>;

export const callLogSchema = z
  .object({ calls: z.array(callRecordSchema), snapshots: z.record(z.string(), promptSnapshotSchema) })
  .refine((log) => log.calls.every((c) => Object.hasOwn(log.snapshots, c.snapshot)), {
    message: "a call refers to a prompt snapshot that is not in the file",
  });
export type CallLog = z.infer<typeof callLogSchema>;

