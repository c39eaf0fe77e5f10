/** Writes events as the API's SSE stream: numbered from 0, `event:` + `data:` lines, no [DONE]; optionally cut or paused. */
import type { StreamEvent } from "./render-turn.ts";

export const sseFrame = (event: StreamEvent, sequence_number: number) => {
  const { type, ...rest } = event;
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number, ...rest })}\n\n`;
};

export type StreamPlan = {
  /** Close the stream after this many events. */
  cutAfter?: number;
  /** Stall for pauseMs after this many events. */
  pauseAfter?: number;
  pauseMs?: number;
  /** Wait this long between events (lets tests interrupt mid-stream). */
  paceMs?: number;
  /** After this many events, send nothing more until `until` settles, then close. */
  hangAfter?: number;
  until?: Promise<void>;
};

export function sseStream(events: StreamEvent[], plan: StreamPlan = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const end = Math.min(events.length, plan.cutAfter ?? events.length);
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next === plan.hangAfter) {
        await plan.until;
        return controller.close();
      }
      if (next >= end) return controller.close();
      if (next === plan.pauseAfter && plan.pauseMs) await Bun.sleep(plan.pauseMs);
      else if (next > 0 && plan.paceMs) await Bun.sleep(plan.paceMs);
      controller.enqueue(encoder.encode(sseFrame(events[next]!, next)));
      next++;
    },
  });
}
