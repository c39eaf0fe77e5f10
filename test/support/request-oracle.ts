/**
 * The test oracle for request bodies: the stateless body built the plain way — every message
 * serialised, nothing compacted — that what the composer sends (src/context/compose-request.ts) must
 * equal whenever nothing needs compacting ("composed == sent"). Production builds every body through
 * the composer; this lives in the tests only.
 */
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { Message } from "../../src/session/messages.ts";
import { requestParams, trailerItem, type ParamOptions } from "../../src/wire/build-request.ts";
import type { RequestBody } from "../../src/wire/model-stream.ts";
import { serialiseInput } from "../../src/wire/serialise-input.ts";
import { toolSchema, type ToolSpec } from "../../src/wire/tool-schema.ts";

export type BuildRequestBodyOptions = ParamOptions & {
  instructions: string;
  tools: readonly ToolSpec[];
  messages: readonly Message[];
  /** Per-step context (e.g. the task list) sent after the history. */
  trailer?: string;
};

/** The history as input items, with the per-step trailer (if any) after it. */
export function wireInput(messages: readonly Message[], opts: { model: string; trailer?: string }): ResponseInputItem[] {
  const input = serialiseInput(messages, { model: opts.model });
  if (opts.trailer !== undefined) input.push(trailerItem(opts.trailer));
  return input;
}

/**
 * The stateless request body. Key order is fixed (stable prefix first, `input` last) because the
 * body is compared byte for byte between runs.
 */
export function buildRequestBody(opts: BuildRequestBodyOptions): RequestBody {
  return {
    model: opts.model,
    instructions: opts.instructions,
    tools: opts.tools.map(toolSchema),
    ...requestParams(opts),
    input: wireInput(opts.messages, opts),
  };
}
