import { callsOf, type RecordedCall } from "./call-log.ts";
import { usageText } from "../pricing/usage-text.ts";
import type { SessionState } from "../session/reduce-session.ts";
import type { ResponseSummary } from "../session/message-schema.ts";
import { plural } from "../text/plural.ts";

export type InspectOptions = {
  /** 1-based; all calls when absent. */
  step?: number;
  /** Print long strings whole instead of clipped. */
  full: boolean;
  /** One line per call: the body exactly as sent (compact JSON), for scripts and diffing. */
  json?: boolean;
  /** The real request builder, so the printed body is exactly what the loop transmitted. */
  rebuild: (call: RecordedCall) => object;
};

export const CLIP_CHARS = 200;

/** A step outside the session's calls. Carries what the caller needs to say so. */
export class InspectError extends Error {
  constructor(
    readonly step: number,
    readonly calls: number,
  ) {
    super(calls === 0 ? "this session has no recorded model calls" : `no step ${step}: the session has ${calls === 1 ? "only step 1" : `steps 1–${calls}`}`);
  }
}

/** `shiro inspect`: each model call's request body, rebuilt, and a summary of its response. */
export function inspectSession(session: Pick<SessionState, "id" | "messages" | "callLog">, opts: InspectOptions): string {
  const calls = callsOf(session);
  if (opts.step !== undefined && (opts.step < 1 || opts.step > calls.length || !Number.isInteger(opts.step))) {
    throw new InspectError(opts.step, calls.length);
  }
  const chosen = opts.step === undefined ? calls : [calls[opts.step - 1]!];
  if (opts.json) return chosen.map((call) => JSON.stringify(opts.rebuild(call))).join("\n");
  const blocks = chosen.map((call) => {
    const prompt = call.sameSnapshotAs ? `instructions+tools as call ${call.sameSnapshotAs}` : "new instructions+tools";
    const head = `── call ${call.step} of ${calls.length} · ${call.model} · built from ${plural(call.messageCount, "message")} · ${prompt}${call.harder ? " · compacted harder" : ""}`;
    const body = opts.full ? opts.rebuild(call) : clip(opts.rebuild(call));
    return `${head}\n${JSON.stringify(body, null, 2)}\n${responseText(call.response)}`;
  });
  const clipped = opts.full ? "" : ` (strings clipped to ${CLIP_CHARS} chars; --full shows all)`;
  return [`session ${session.id} · ${plural(calls.length, "model call")}${clipped}`, ...blocks].join("\n\n");
}

function responseText(r: ResponseSummary | undefined): string {
  if (!r) return "response: none recorded (the process stopped before it arrived)";
  const parts = [`response: ${r.status}`];
  if (r.responseId) parts.push(r.responseId);
  if (r.usage) parts.push(usageText(r.usage));
  if (r.error) parts.push(r.error);
  return parts.join(" · ");
}

/** Long strings shortened in place of the value, so the output stays valid JSON. */
function clip(value: unknown): unknown {
  if (typeof value === "string") {
    return value.length > CLIP_CHARS ? `${value.slice(0, CLIP_CHARS)}… [+${value.length - CLIP_CHARS} chars]` : value;
  }
  if (Array.isArray(value)) return value.map(clip);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clip(v)]));
  return value;
}
