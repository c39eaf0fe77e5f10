import { z } from "zod";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import type { ClientPeer } from "./json-rpc.ts";
import { toolCallKind } from "./tool-call-kind.ts";
import { acpDiffs } from "./unified-diff.ts";

const answerSchema = z.looseObject({
  outcome: z.discriminatedUnion("outcome", [z.looseObject({ outcome: z.literal("cancelled") }), z.looseObject({ outcome: z.literal("selected"), optionId: z.string() })]),
});

/** The options asked, by what each answers: as the REPL's y, a and n. */
const ANSWERS: Record<string, AskAnswer> = { allow_once: { answer: "yes" }, allow_always: { answer: "always" }, reject_once: { answer: "no" } };

/**
 * Every approval the REPL would ask, asked of the editor (`session/request_permission`) on the call
 * it is about: allow once, allow always (the gate records it as the REPL's "always"), reject. A
 * cancelled question or a lost editor is a refusal.
 */
export function askThroughClient(client: ClientPeer, sessionId: () => string, root: string): (request: AskRequest) => Promise<AskAnswer> {
  let asked = 0;
  return async (request) => {
    const options = [
      { optionId: "allow_once", name: "Allow", kind: "allow_once" },
      ...(request.always.length ? [{ optionId: "allow_always", name: `Always allow ${request.always.join(", ")}`, kind: "allow_always" }] : []),
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ];
    const diffs = request.preview === undefined ? [] : acpDiffs(request.preview, root);
    const toolCall = {
      toolCallId: request.callId ?? `shiro-ask-${++asked}`,
      title: request.summary,
      kind: toolCallKind(request.call.tool),
      status: "pending",
      ...(diffs.length ? { content: diffs } : {}),
      ...(request.call.subject.paths?.length ? { locations: request.call.subject.paths.map((path) => ({ path })) } : {}),
    };
    let reply: unknown;
    try {
      reply = await client.request("session/request_permission", { sessionId: sessionId(), toolCall, options });
    } catch (err) {
      return { answer: "no", reason: `the editor did not answer the question (${(err as Error).message})` };
    }
    const parsed = answerSchema.safeParse(reply);
    if (!parsed.success) return { answer: "no", reason: "the editor's answer was not one of the options" };
    const outcome = parsed.data.outcome;
    if (outcome.outcome === "cancelled") return { answer: "no", reason: "the person cancelled the turn" };
    return ANSWERS[outcome.optionId] ?? { answer: "no", reason: `the editor answered "${outcome.optionId}", which was not offered` };
  };
}
