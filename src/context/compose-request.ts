import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import type { Message } from "../session/messages.ts";
import type { Compaction } from "./compaction.ts";
import type { RequestBody } from "../wire/model-stream.ts";
import { bodyWithKnownInput } from "../wire/body-json.ts";
import { trailerItem, type RequestParams } from "../wire/build-request.ts";
import { compactForWire, overflowsEveryPlan, type CompactOptions } from "./compact.ts";
import { sized, type SizedItem } from "../wire/sized-item.ts";
import { createWireLedger, type WireLedger } from "./wire-ledger.ts";

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

// Measured as the body's JSON, as the API counts it. The prompt is the same objects request after
// request (the session's, or a logged snapshot's), so it is measured once per tools array.
const measuredPrompts = new WeakMap<object, { instructions: string; chars: number }>();
function promptChars(instructions: string, tools: readonly FunctionTool[]): number {
  let measured = measuredPrompts.get(tools);
  if (measured?.instructions !== instructions) {
    measured = { instructions, chars: JSON.stringify({ instructions, tools }).length };
    measuredPrompts.set(tools, measured);
  }
  return measured.chars;
}

export type ComposedRequest = { body: RequestBody; tokens: number; compaction?: Compaction; needsSummary?: boolean };

const compactOptions = (spec: RequestSpec, trailer: SizedItem | undefined): CompactOptions => ({
  model: spec.model,
  threshold: spec.limits.threshold,
  window: spec.limits.window,
  harder: spec.harder,
  instructionsChars: promptChars(spec.instructions, spec.tools) + (trailer?.chars ?? 0),
});

/**
 * When `composeRequest` would surely answer `needsSummary`, what its compaction would report, found
 * without composing: the body is made only if it is still to be sent (the summary failed).
 */
export function surelyNeedsSummary(messages: readonly Message[], spec: RequestSpec, ledger: WireLedger): Omit<Compaction, "messagesAfter" | "tokensAfter"> | undefined {
  const trailer = spec.trailer === undefined ? undefined : sized(trailerItem(spec.trailer));
  const over = overflowsEveryPlan(messages, compactOptions(spec, trailer), ledger);
  return over && { messagesBefore: ledger.entries.length, tokensBefore: over.tokensBefore };
}

/**
 * History + spec → the exact body sent. The loop transmits through this and `shiro inspect`
 * rebuilds through it, so what inspect prints is what went on the wire. A ledger kept between calls
 * (one per session) only saves work: the body is the same with a fresh one.
 */
export function composeRequest(messages: readonly Message[], spec: RequestSpec, ledger: WireLedger = createWireLedger()): ComposedRequest {
  const trailer = spec.trailer === undefined ? undefined : sized(trailerItem(spec.trailer));
  const compacted = compactForWire(messages, compactOptions(spec, trailer), ledger);
  const rest = { model: spec.model, instructions: spec.instructions, tools: [...spec.tools], ...spec.params };
  const after = (items: ResponseInputItem[]) => (trailer ? [...items, trailer.item] : items);
  // A dropped region read back goes on the wire as the JSON it was stored as (`bodyJson`).
  const { wire } = compacted;
  const body = wire ? bodyWithKnownInput(rest, { head: wire.head, tail: after(wire.tail) }) : ({ ...rest, input: after(compacted.input) } as RequestBody);
  return {
    body,
    tokens: compacted.tokens,
    ...(compacted.compaction ? { compaction: compacted.compaction } : {}),
    ...(compacted.needsSummary ? { needsSummary: true } : {}),
  };
}
