import type { FunctionTool } from "openai/resources/responses/responses";
import type { Message } from "../session/messages.ts";
import type { Compaction } from "../agent/run.ts";
import type { RequestBody } from "../wire/model-stream.ts";
import { wireInput, type RequestParams } from "../wire/build-request.ts";
import { compactForWire } from "./compact.ts";

/** Everything besides the history that decides a request's bytes; the session records it per call. */
export type RequestSpec = {
  model: string;
  instructions: string;
  tools: readonly FunctionTool[];
  params: RequestParams;
  limits: { threshold: number; window: number };
  harder: boolean;
  trailer?: string;
};

export type ComposedRequest = { body: RequestBody; tokens: number; compaction?: Compaction; needsSummary?: boolean };

/**
 * History + spec → the exact body sent. The loop transmits through this and `shiro inspect`
 * rebuilds through it, so what inspect prints is what went on the wire.
 */
export function composeRequest(messages: readonly Message[], spec: RequestSpec): ComposedRequest {
  const compacted = compactForWire(messages, {
    model: spec.model,
    threshold: spec.limits.threshold,
    window: spec.limits.window,
    harder: spec.harder,
    instructionsChars: spec.instructions.length + JSON.stringify(spec.tools).length,
  });
  const body = {
    model: spec.model,
    instructions: spec.instructions,
    tools: [...spec.tools],
    ...spec.params,
    input: wireInput(compacted.messages, { model: spec.model, trailer: spec.trailer }),
  } as RequestBody;
  return {
    body,
    tokens: compacted.tokens,
    ...(compacted.compaction ? { compaction: compacted.compaction } : {}),
    ...(compacted.needsSummary ? { needsSummary: true } : {}),
  };
}
