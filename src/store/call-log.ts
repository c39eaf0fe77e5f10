import type { Message } from "../session/messages.ts";
import type { CallLog, ResponseSummary } from "../session/message-schema.ts";

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

/** Content hash of a prompt snapshot; equal keys mean byte-identical instructions and tools. */
export function snapshotKey(instructions: string, tools: readonly unknown[]): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify([instructions, tools])).digest("hex").slice(0, 24);
}

/** Every call of a session with what it was built from, so `shiro inspect` can rebuild its body. */
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
      messages: call.history ?? session.messages.slice(0, call.messageCount),
      harder: call.harder ?? false,
      ...(call.limits ? { limits: call.limits } : {}),
      ...(call.trailer !== undefined ? { trailer: call.trailer } : {}),
      ...(sameSnapshotAs !== undefined ? { sameSnapshotAs } : {}),
      ...(call.response ? { response: call.response } : {}),
    };
  });
}
