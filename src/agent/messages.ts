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

export type UserMessage = { role: "user"; text: string };

export type ReasoningPart = {
  type: "reasoning";
  itemId?: string;
  summary: string[];
  /** `encrypted_content` from `response.output_item.done`; valid only for `AssistantMessage.model`. */
  encrypted?: string;
};
export type TextPart = { type: "text"; itemId?: string; text: string };
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
  /** Set when the response did not complete (the user aborted it); its text is kept. */
  incomplete?: "aborted";
};

export type ToolResult = { callId: string; output: string; isError?: boolean };
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

export const textOf = (m: AssistantMessage): string =>
  m.parts
    .filter((p): p is TextPart => p.type === "text")
    .map((p) => p.text)
    .join("");
