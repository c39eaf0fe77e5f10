/** Small builders for hand-written session histories in compaction tests. */
import type { AssistantMessage, Message } from "../../src/session/messages.ts";
import { sealReasoning } from "./check-input.ts";

export type ExchangeOptions = { name?: string; args?: object; output?: string; isError?: boolean; reasoning?: boolean; model?: string; text?: string };

/** One response with one call, and its result: two messages. */
export function exchange(n: number, o: ExchangeOptions = {}): [AssistantMessage, Message] {
  const model = o.model ?? "gpt-5";
  const callId = `call_${n}`;
  return [
    {
      role: "assistant",
      model,
      parts: [
        ...(o.reasoning ? [{ type: "reasoning" as const, summary: [], encrypted: sealReasoning(`rs_${n}`, model) }] : []),
        ...(o.text ? [{ type: "text" as const, text: o.text }] : []),
        { type: "tool-call", callId, name: o.name ?? "read_file", arguments: JSON.stringify(o.args ?? { path: `src/f${n}.ts` }) },
      ],
    },
    { role: "tool", results: [{ callId, output: o.output ?? `contents of f${n}\n`.repeat(400), ...(o.isError ? { isError: true } : {}) }] },
  ];
}

export function history(task: string, exchanges: number, o: ExchangeOptions = {}): Message[] {
  const messages: Message[] = [{ role: "user", text: task }];
  for (let n = 1; n <= exchanges; n++) messages.push(...exchange(n, o));
  return messages;
}
