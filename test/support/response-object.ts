/** The `response` object the API embeds in created / in_progress / completed / failed events, shaped as recorded. */
import { isReasoningModel } from "./check-params.ts";

export type Usage = {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
};

export type ResponseState =
  | { status: "in_progress" }
  | { status: "completed"; output: Record<string, any>[]; usage: Usage }
  | { status: "incomplete"; reason: string; output: Record<string, any>[]; usage: Usage }
  | { status: "failed"; error: { code: string; message: string } };

export function responseObject(id: string, createdAt: number, body: any, state: ResponseState) {
  const reasoning = isReasoningModel(body.model);
  return {
    id,
    object: "response",
    created_at: createdAt,
    status: state.status,
    background: false,
    error: state.status === "failed" ? state.error : null,
    incomplete_details: state.status === "incomplete" ? { reason: state.reason } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    model: body.model,
    output: state.status === "completed" || state.status === "incomplete" ? state.output : [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    prompt_cache_retention: null,
    reasoning: reasoning ? { effort: body.reasoning?.effort ?? "medium", summary: body.reasoning?.summary ?? null } : { effort: null, summary: null },
    safety_identifier: null,
    service_tier: state.status === "completed" ? "default" : "auto",
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: "text" }, verbosity: body.text?.verbosity ?? "medium" },
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: state.status === "completed" || state.status === "incomplete" ? state.usage : null,
    user: null,
    metadata: body.metadata ?? {},
  };
}
