import { z } from "zod";
import { todoSchema } from "./notebook.ts";
import { messageSchema, inputImageSchema, usageSchema } from "./message-schema.ts";
import type { AssistantMessage } from "./messages.ts";
import { hookRunSchema } from "./hook-run.ts";
import { AGENT_MODES } from "./agent-mode.ts";

/** The log's format version, on its first line. Schema-1 sessions were one JSON document each. */
export const LOG_VERSION = 2;

const at = z.string();

/**
 * One durable fact of a session: a line of its JSONL log, appended — never rewritten — before the
 * side effect it announces (a model call, a tool run). Deltas are never logged. The session's state
 * is what `reduce-session.ts` makes of these, in order.
 */
export const sessionEventSchema = z.discriminatedUnion("type", [
  /** Line 1, and only there. `forkedFrom`: the session whose first `events` lines this one continues; `parent`: the session whose call `callId` started this one (a child agent's). */
  z.object({ type: z.literal("session"), v: z.literal(LOG_VERSION), id: z.string(), at, cwd: z.string(), model: z.string(), forkedFrom: z.object({ id: z.string(), events: z.number().int().nonnegative() }).optional(), parent: z.object({ id: z.string(), callId: z.string() }).optional() }),
  /** `images`: the hashes of the `image` lines holding what the person gave with the prompt. */
  z.object({ type: z.literal("user"), text: z.string(), images: z.array(z.string()).optional(), at }),
  /** An image, once per distinct content in the log: `hash` is the sha256 of its bytes, which prompts and results name. */
  z.object({ type: z.literal("image"), hash: z.string(), mediaType: z.string(), data: z.string() }),
  /**
   * A conversation brought in by `shiro import` (line 2 of a new session): its `messages`, the prompts
   * among them that began `turns` (by index, with when), and the export it came `from`.
   */
  z.object({
    type: z.literal("import"),
    from: z.object({ id: z.string(), exportedAt: z.string() }),
    messages: z.array(messageSchema),
    turns: z.array(z.object({ start: z.number().int().nonnegative(), at })),
    at,
  }),
  /** The instructions and tools a call was sent with, once per distinct content (calls refer to `key`). */
  z.object({ type: z.literal("prompt"), key: z.string(), instructions: z.string(), tools: z.array(z.unknown()) }),
  /** A model call about to be sent, built from the first `messages` messages and the prompt `prompt`. */
  z.object({
    type: z.literal("call"),
    step: z.number().int().positive(),
    model: z.string(),
    params: z.record(z.string(), z.unknown()),
    messages: z.number().int().nonnegative(),
    prompt: z.string(),
    harder: z.literal(true).optional(),
    limits: z.object({ threshold: z.number(), window: z.number() }).optional(),
    trailer: z.string().optional(),
    at,
  }),
  /** How call `step` ended; `message` is the answer as it joins the history (for `incomplete`/`aborted`, what streamed). */
  z.object({
    type: z.literal("response"),
    step: z.number().int().positive(),
    status: z.enum(["completed", "incomplete", "aborted", "error"]),
    message: messageSchema.optional(),
    usage: usageSchema.optional(),
    error: z.string().optional(),
    at,
  }),
  /** A tool call was judged: approved (by a rule, --yolo, the person, the read-only sandbox) or denied. */
  z.object({ type: z.literal("verdict"), callId: z.string(), allowed: z.boolean(), sandbox: z.enum(["read-only", "workspace-write"]).optional(), reason: z.string().optional() }),
  /** The tool is about to run: with no result after it, it was interrupted (never re-run on resume). */
  z.object({ type: z.literal("tool"), callId: z.string() }),
  /**
   * `images`: what the tool gave besides text (an image file read, an MCP tool's), sent as `input_image`:
   * the hashes of their `image` lines (a log written before those lines existed holds the images themselves).
   */
  z.object({
    type: z.literal("result"),
    callId: z.string(),
    output: z.string(),
    isError: z.literal(true).optional(),
    denied: z.literal(true).optional(),
    images: z.array(z.union([z.string(), inputImageSchema])).optional(),
    child: z.object({ sessionId: z.string(), agent: z.string() }).optional(),
  }),
  /** The wire starts again from this summary (`/compact`, or when the history no longer fits). */
  z.object({ type: z.literal("compaction"), summary: z.string(), at }),
  z.object({ type: z.literal("todos"), todos: z.array(todoSchema) }),
  z.object({ type: z.literal("model"), model: z.string() }),
  /** The agent's mode from here on (`--plan`, `/plan`, accepting a plan): its prompts are sent in it, and `-c` resumes in it. */
  z.object({ type: z.literal("mode"), mode: z.enum(AGENT_MODES), at }),
  /** Turn `turn` and every later one are undone: their messages leave the history (their files were put back). */
  z.object({ type: z.literal("undo"), turn: z.number().int().positive(), at }),
  /**
   * An MCP server came up (`connected`: the protocol version it speaks, its name and version, how many tools
   * it offers and the hash of their list as sent) or went away (`failed`, `closed`: why, in one line).
   */
  z.object({
    type: z.literal("mcp"),
    server: z.string(),
    status: z.enum(["connected", "failed", "closed"]),
    protocolVersion: z.string().optional(),
    serverInfo: z.object({ name: z.string(), version: z.string().optional() }).optional(),
    tools: z.number().int().nonnegative().optional(),
    toolsHash: z.string().optional(),
    error: z.string().optional(),
    at,
  }),
  /** Background job `id` ended by itself, unread: told to the model as a user message before its next request (job-note.ts). */
  z.object({ type: z.literal("job"), id: z.number().int().positive(), command: z.string(), how: z.enum(["exit", "timeout"]), code: z.number().int(), at }),
  /**
   * A project instruction file below the session's folder joined the instructions for the rest of the
   * session, once (a tool first touched its folder): its `path` from that folder, its `text` as it
   * joined, its size in `bytes`, and `cut` when the caps kept only part of it (or none).
   */
  z.object({ type: z.literal("instructions"), path: z.string(), text: z.string(), bytes: z.number().int().nonnegative(), cut: z.literal(true).optional(), at }),
  /** A context window learned from an overflow, for that model. */
  z.object({ type: z.literal("window"), model: z.string(), tokens: z.number().int().positive() }),
  /** A hook ran (docs/hooks.md): what it decided and why; a `feedback` joins the history as a user message. */
  hookRunSchema,
]);

export type SessionEvent = z.infer<typeof sessionEventSchema>;
export type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

/** A response event's message, typed as what it is (the schema allows any message role; the reducer checks). */
export const answerOf = (event: EventOf<"response">): AssistantMessage | undefined =>
  event.message?.role === "assistant" ? event.message : undefined;
