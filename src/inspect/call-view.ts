import type { RecordedCall } from "../store/call-log.ts";
import { plural } from "../text/plural.ts";
import { CLIP_CHARS, clipStrings, hookLine, responseText } from "./inspect-rows.ts";
import type { InspectedHook } from "./log-turns.ts";

/**
 * `shiro inspect <session> <call>`: the request body the call sent, rebuilt from the log, long
 * strings clipped unless `full`, a summary of its response, and the hooks that ran for its answer
 * (so a blocked tool call says why, under the call that asked for it).
 */
export function callText(session: { id: string; calls: number }, call: RecordedCall & { hooks: readonly InspectedHook[] }, body: object, opts: { full: boolean }): string {
  const prompt = call.sameSnapshotAs ? `instructions+tools as call ${call.sameSnapshotAs}` : "new instructions+tools";
  const head = `── call ${call.step} of ${session.calls} · ${call.model} · built from ${plural(call.messageCount, "message")} · ${prompt}${call.harder ? " · compacted harder" : ""}`;
  const clipped = opts.full ? "" : ` (strings clipped to ${CLIP_CHARS} chars; --full shows all)`;
  const shown = opts.full ? body : clipStrings(body);
  return [`session ${session.id} · ${plural(session.calls, "model call")}${clipped}`, "", head, JSON.stringify(shown, null, 2), responseText(call.response), ...call.hooks.map(hookLine)].join("\n");
}

/** `<call> --json`: the body exactly as sent, as one line of compact JSON (the hooks are in `--diff --json`). */
export const callJson = (body: object): string => JSON.stringify(body);
