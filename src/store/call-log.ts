import type { Message } from "../agent/messages.ts";
import type { CallLog, CallRecord, ResponseSummary } from "./session-schema.ts";

/** What the loop knows when it sends a request. */
export type CallInput = {
  model: string;
  instructions: string;
  tools: readonly unknown[];
  /** Every body field except instructions, tools and input (reasoning, store, include, …). */
  params: Record<string, unknown>;
  /** How many session messages the request was built from (messages.length at build time). */
  messageCount: number;
  harder?: boolean;
  limits?: { threshold: number; window: number };
  trailer?: string;
};

/** Everything needed to rebuild one call's body with the real request builder. */
export type RecordedCall = {
  /** 1-based, in the order the calls were sent. */
  step: number;
  model: string;
  instructions: string;
  tools: unknown[];
  params: Record<string, unknown>;
  messageCount: number;
  /** The session messages the request was built from. */
  messages: Message[];
  harder: boolean;
  limits?: { threshold: number; window: number };
  trailer?: string;
  /** The step whose snapshot this call reuses (byte-identical instructions and tools), if any. */
  sameSnapshotAs?: number;
  response?: ResponseSummary;
};

export const emptyCallLog = (): CallLog => ({ calls: [], snapshots: {} });

/** Content hash of a prompt snapshot; equal keys mean byte-identical instructions and tools. */
export function snapshotKey(instructions: string, tools: readonly unknown[]): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify([instructions, tools])).digest("hex").slice(0, 24);
}

/**
 * Appends a call. Its instructions and tools are stored once per distinct content, so a
 * 1,000-call session with one prompt holds that prompt once; a changed prompt adds a snapshot.
 * Returns the call's step number.
 */
export function recordCall(session: { callLog: CallLog }, input: CallInput): number {
  const { calls, snapshots } = session.callLog;
  const key = snapshotKey(input.instructions, input.tools);
  snapshots[key] ??= { instructions: input.instructions, tools: [...input.tools] };
  const call: CallRecord = { model: input.model, params: input.params, messageCount: input.messageCount, snapshot: key };
  if (input.harder) call.harder = true;
  if (input.limits) call.limits = input.limits;
  if (input.trailer !== undefined) call.trailer = input.trailer;
  calls.push(call);
  return calls.length;
}

/** Attaches the outcome to the newest call, the one the loop was waiting on (one call is in flight at a time). */
export function recordResponse(session: { callLog: CallLog }, summary: ResponseSummary): void {
  const last = session.callLog.calls.at(-1);
  if (last && !last.response) last.response = summary;
}

export function callsOf(session: { callLog: CallLog; messages: readonly Message[] }): RecordedCall[] {
  const firstStepOf = new Map<string, number>();
  return session.callLog.calls.map((call, i) => {
    const step = i + 1;
    const snapshot = session.callLog.snapshots[call.snapshot]; // present: the file schema checks every reference
    const sameSnapshotAs = firstStepOf.get(call.snapshot);
    if (sameSnapshotAs === undefined) firstStepOf.set(call.snapshot, step);
    return {
      step,
      model: call.model,
      instructions: snapshot!.instructions,
      tools: snapshot!.tools,
      params: call.params,
      messageCount: call.messageCount,
      messages: session.messages.slice(0, call.messageCount),
      harder: call.harder ?? false,
      ...(call.limits ? { limits: call.limits } : {}),
      ...(call.trailer !== undefined ? { trailer: call.trailer } : {}),
      ...(sameSnapshotAs !== undefined ? { sameSnapshotAs } : {}),
      ...(call.response ? { response: call.response } : {}),
    };
  });
}
