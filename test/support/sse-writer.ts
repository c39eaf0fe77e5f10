/** Writes events as the API's SSE stream: numbered from 0, `event:` + `data:` lines, no [DONE]; optionally cut or paused. */
import type { StreamEvent } from "./render-turn.ts";

export const sseFrame = (event: StreamEvent, sequence_number: number) => {
  const { type, ...rest } = event;
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number, ...rest })}\n\n`;
};

export type StreamPlan = {
  /** Close the stream after this many events. */
  cutAfter?: number;
  /** Reset the connection after this many events, once they were read (erroring the body makes Bun send a TCP RST). */
  resetAfter?: number;
  /** Stall for pauseMs after this many events. */
  pauseAfter?: number;
  pauseMs?: number;
  /** Wait this long between events (lets tests interrupt mid-stream). */
  paceMs?: number;
  /** After this many events, send nothing more until `until` settles, then close. */
  hangAfter?: number;
  until?: Promise<void>;
};

const RESET_AFTER_READ_MS = 50;

export function sseStream(events: StreamEvent[], plan: StreamPlan = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const end = Math.min(events.length, plan.cutAfter ?? events.length, plan.resetAfter ?? events.length);
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next === plan.hangAfter) {
        await plan.until;
        return controller.close();
      }
      if (next >= end && next === plan.resetAfter) {
        // A reset mid-stream comes after the client read what was sent; at 0 it races the headers.
        if (next > 0) await Bun.sleep(RESET_AFTER_READ_MS);
        // error(undefined), not an Error: Bun then drops the socket without logging the reason.
        return controller.error(undefined);
      }
      if (next >= end) return controller.close();
      if (next === plan.pauseAfter && plan.pauseMs) await Bun.sleep(plan.pauseMs);
      else if (next > 0 && plan.paceMs) await Bun.sleep(plan.paceMs);
      controller.enqueue(encoder.encode(sseFrame(events[next]!, next)));
      next++;
    },
  });
}
