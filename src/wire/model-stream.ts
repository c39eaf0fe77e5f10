import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { AssistantMessage, Phase } from "../session/messages.ts";
import type { ModelError } from "./model-error.ts";

/** The exact JSON body sent to `POST /responses`. */
export type RequestBody = ResponseCreateParamsStreaming;

/**
 * What one model call yields, already assembled from the SSE events. It ends with `done`,
 * `incomplete` (the API stopped the response early: what streamed is in `message`) or `error`.
 */
export type ModelEvent =
  | { type: "text-delta"; text: string; phase?: Phase }
  | { type: "reasoning-delta"; text: string }
  /** Attempt `attempt` of `maxAttempts` starts after `delayMs`; its answer streams again from the start. */
  | { type: "retry"; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  | { type: "done"; message: AssistantMessage }
  | { type: "incomplete"; message: AssistantMessage; reason: string }
  | { type: "error"; error: ModelError; partial?: AssistantMessage };

/**
 * The seam between the loop and the network. The real one wraps the `openai` SDK; tests may pass
 * anything that yields the same events. It must never throw: failures end as an `error` event.
 */
export type ModelStream = (body: RequestBody, signal: AbortSignal) => AsyncIterable<ModelEvent>;
