import type { AssistantMessage, Message, ToolCallPart, ToolMessage } from "../session/messages.ts";
import { activeStart } from "../wire/serialise-input.ts";
import { formatCount } from "../text/format-count.ts";
import { callSubject, describeCall, parseArguments } from "./describe-call.ts";

export type ElideOptions = {
  /** At least this many of the newest calls keep their output. */
  keepRecent: number;
  /** The cut moves in steps of this many calls, so consecutive requests share their prefix. */
  step: number;
};

// Outputs and argument values shorter than this are kept: a stub would save little and lose the content.
export const ELIDE_MIN_CHARS = 400;
const ARGUMENT_MIN_CHARS = 1_000;

const HOW_TO_GET_BACK = { path: "read it again if needed", command: "run it again if needed", search: "search again if needed", other: "call it again if needed" };

/** `[output of read_file src/a.ts elided: 8,192 chars — read it again if needed]` */
export function elisionStub(call: Pick<ToolCallPart, "name" | "arguments">, output: string, isError?: boolean): string {
  const how = HOW_TO_GET_BACK[callSubject(call.arguments)?.kind ?? "other"];
  return `[${isError ? "error " : ""}output of ${describeCall(call.name, call.arguments)} elided: ${formatCount(output.length)} chars — ${how}]`;
}

/** Large string arguments (a whole file given to a write) become a short marker; the JSON stays valid. */
function elideArguments(args: string): string {
  if (args.length < ARGUMENT_MIN_CHARS) return args;
  const parsed = parseArguments(args);
  if (!parsed) return args;
  let changed = false;
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === "string" && value.length >= ARGUMENT_MIN_CHARS) {
      parsed[key] = `[elided: ${formatCount(value.length)} chars]`;
      changed = true;
    }
  }
  return changed ? JSON.stringify(parsed) : args;
}

/** How many of the oldest calls lose their bulk: everything but the newest ones, in coarse steps. */
export function elisionCut(totalCalls: number, opts: ElideOptions): number {
  return Math.max(0, Math.floor((totalCalls - opts.keepRecent) / opts.step) * opts.step);
}

/**
 * Elide, don't delete: every call and its result stay, as a pair, in place (same indices); the
 * output of older calls becomes a stub saying what it was and how to get it back.
 */
export function elide(messages: readonly Message[], opts: ElideOptions): Message[] {
  const start = activeStart(messages);
  let total = 0;
  for (let i = start; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "assistant") for (const p of m.parts) if (p.type === "tool-call") total++;
  }
  const cut = elisionCut(total, opts);
  const out = messages.slice();
  let seen = 0;
  for (let i = start; i < messages.length && seen < cut; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant") continue;
    const elided = new Map<string, ToolCallPart>();
    const parts = m.parts.map((p) => {
      if (p.type !== "tool-call" || seen >= cut) return p;
      seen++;
      elided.set(p.callId, p);
      const args = elideArguments(p.arguments);
      return args === p.arguments ? p : { ...p, arguments: args };
    });
    if (parts.some((p, k) => p !== m.parts[k])) out[i] = { ...m, parts } satisfies AssistantMessage;
    const next = messages[i + 1];
    if (next?.role === "tool" && elided.size) out[i + 1] = elideResults(next, elided);
  }
  return out;
}

function elideResults(m: ToolMessage, elided: ReadonlyMap<string, ToolCallPart>): ToolMessage {
  let changed = false;
  const results = m.results.map((r) => {
    const call = elided.get(r.callId);
    if (!call || r.output.length < ELIDE_MIN_CHARS) return r;
    changed = true;
    return { ...r, output: elisionStub(call, r.output, r.isError) };
  });
  return changed ? { ...m, results } : m;
}
