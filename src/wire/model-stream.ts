import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { AssistantMessage } from "../agent/messages.ts";
import type { ModelError } from "./model-error.ts";

/** The exact JSON body sent to `POST /responses`. */
export type RequestBody = ResponseCreateParamsStreaming;

/** What one model call yields, already assembled from the SSE events. It ends with `done` or `error`. */
export type ModelEvent =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "retry"; attempt: number; reason: string }
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; error: ModelError; partial?: AssistantMessage };

/**
 * The seam between the loop and the network. The real one wraps the `openai` SDK; tests may pass
 * anything that yields the same events. It must never throw: failures end as an `error` event.
 */
export type ModelStream = (body: RequestBody, signal: AbortSignal) => AsyncIterable<ModelEvent>;
