import type { ResponseFormatTextJSONSchemaConfig, ResponseInputItem } from "openai/resources/responses/responses";
import type { RequestBody } from "./model-stream.ts";
import type { ReasoningEffort } from "./reasoning-effort.ts";

/** The shape every answer's text must take (`--output-schema`): a JSON schema the API enforces in strict mode. */
export type TextFormat = ResponseFormatTextJSONSchemaConfig & { strict: true };

/** What decides a body's fields besides the prompt and the input. */
export type ParamOptions = {
  model: string;
  /** Keys the API's prompt cache, so one session's requests hit the same cached prefix. */
  sessionId: string;
  reasoningEffort?: ReasoningEffort;
  textFormat?: TextFormat;
  maxOutputTokens?: number;
};

/** Models that reason (and so accept `reasoning` and return encrypted reasoning): gpt-5*, o1/o3/o4*. */
export const isReasoningModel = (model: string): boolean => /^(gpt-5|o[134])([-.]|$)/.test(model);

export type RequestParams = Omit<RequestBody, "model" | "instructions" | "tools" | "input">;

/** Every body field but the prompt (instructions, tools) and the input, in wire order. */
export function requestParams(opts: ParamOptions): RequestParams {
  const reasoning = isReasoningModel(opts.model);
  return {
    tool_choice: "auto",
    parallel_tool_calls: true,
    // Without an effort the model's own default applies (it differs between gpt-5 and gpt-5.1).
    ...(reasoning ? { reasoning: { ...(opts.reasoningEffort ? { effort: opts.reasoningEffort } : {}), summary: "auto" as const } } : {}),
    // On every step, not just the last: which response is the final answer is only known once it comes.
    ...(opts.textFormat ? { text: { format: opts.textFormat } } : {}),
    ...(opts.maxOutputTokens !== undefined ? { max_output_tokens: opts.maxOutputTokens } : {}),
    store: false,
    // Only reasoning models make encrypted reasoning; others may reject the include.
    ...(reasoning ? { include: ["reasoning.encrypted_content" as const] } : {}),
    prompt_cache_key: opts.sessionId,
    stream: true,
  };
}

/** The per-step context sent after the history. */
export const trailerItem = (trailer: string): ResponseInputItem => ({ type: "message", role: "developer", content: [{ type: "input_text", text: trailer }] });
