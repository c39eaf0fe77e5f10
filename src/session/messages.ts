/**
 * shiro's own message model: what a session stores and what the serialiser reads.
 * One assistant message = one model response. Provider item ids are kept for
 * inspection only and are never put on the wire.
 */

export type Usage = {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
};

/** `images`: what the person gave with the prompt (`-i`, `@shot.png`, a pasted path), sent after its text. */
export type UserMessage = { role: "user"; text: string; images?: InputImage[] };

export type ReasoningPart = {
  type: "reasoning";
  itemId?: string;
  summary: string[];
  /** `encrypted_content` from `response.output_item.done`; valid only for `AssistantMessage.model`. */
  encrypted?: string;
};
/** Labels a message as intermediate commentary or the final answer (gpt-5.3-codex and later); sent back as it came. */
export type Phase = "commentary" | "final_answer";
export type TextPart = { type: "text"; itemId?: string; text: string; phase?: Phase };
export type ToolCallPart = {
  type: "tool-call";
  itemId?: string;
  callId: string;
  name: string;
  /** The JSON string exactly as the model produced it. */
  arguments: string;
};
export type AssistantPart = ReasoningPart | TextPart | ToolCallPart;

export type AssistantMessage = {
  role: "assistant";
  model: string;
  responseId?: string;
  usage?: Usage;
  parts: AssistantPart[];
  /**
   * Set when the response did not complete: `aborted` by the user, or the API's reason
   * (`max_output_tokens`, `content_filter`, …). Its text is kept; half-made calls are not.
   */
  incomplete?: string;
  /** Output item types shiro does not use (hosted tools such as `web_search_call`), in order. */
  otherItems?: string[];
};

/** A call that never got a result (a run killed or stopped mid-tool) reads this, on the wire and on resume. */
export const INTERRUPTED_OUTPUT =
  "[interrupted: this call did not finish and was not re-run; its outcome is unknown — check before repeating it]";

/**
 * An image for the model, base64 — a person's, a file `read_file` opened, an MCP tool's: it goes as
 * `input_image` beside the text. The log holds each distinct one once (an `image` event, by hash).
 */
export type InputImage = { mediaType: string; data: string };
/** A child agent a call ran: its own session, by id, and the agent's name. */
export type ChildRef = { sessionId: string; agent: string };

export type ToolResult = { callId: string; output: string; isError?: boolean; images?: InputImage[]; child?: ChildRef };
export type ToolMessage = { role: "tool"; results: ToolResult[] };

/**
 * Marks a manual `/compact`: on the wire, history before the newest marker is replaced by
 * its summary. The messages before it stay in the session record for inspection.
 */
export type CompactionMessage = { role: "compaction"; summary: string };

export type Message = UserMessage | AssistantMessage | ToolMessage | CompactionMessage;

export const emptyUsage = (): Usage => ({ inputTokens: 0, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 });

export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

export const toolCallsOf = (m: AssistantMessage): ToolCallPart[] =>
  m.parts.filter((p): p is ToolCallPart => p.type === "tool-call");

const textParts = (m: AssistantMessage): TextPart[] => m.parts.filter((p): p is TextPart => p.type === "text");

export const textOf = (m: AssistantMessage): string =>
  textParts(m)
    .map((p) => p.text)
    .join("");

/**
 * A final response's text split for a reader: the answer, and the commentary that came before it.
 * Without phase labels (or when every part is commentary) all of it is the answer.
 */
export function splitAnswer(m: AssistantMessage): { answer: string; commentary: string } {
  const parts = textParts(m);
  const join = (ps: TextPart[]) => ps.map((p) => p.text).join("");
  const answer = parts.filter((p) => p.phase !== "commentary");
  if (answer.length === 0) return { answer: join(parts), commentary: "" };
  return { answer: join(answer), commentary: join(parts.filter((p) => p.phase === "commentary")) };
}
