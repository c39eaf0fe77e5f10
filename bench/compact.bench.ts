/** Serialise + compact a 2,000-message, ~1,000,000-character history (target: median under 10 ms). */
import type { Message } from "../src/session/messages.ts";
import { compactForWire, type CompactOptions } from "../src/context/compact.ts";
import { serialiseInput } from "../src/wire/serialise-input.ts";
import { medianMs } from "./median.ts";

function bigHistory(): Message[] {
  const messages: Message[] = [{ role: "user", text: "Refactor the parser and make every test pass." }];
  for (let n = 0; messages.length < 2_000; n++) {
    const callId = `call_${n}`;
    messages.push({
      role: "assistant",
      model: "gpt-5",
      parts: [
        { type: "reasoning", summary: ["checking"], encrypted: "gAAA" + "e".repeat(200) },
        { type: "tool-call", callId, name: n % 3 ? "read_file" : "bash", arguments: JSON.stringify(n % 3 ? { path: `src/f${n}.ts` } : { command: "bun test" }) },
      ],
    });
    messages.push({ role: "tool", results: [{ callId, output: `line ${n}\n`.repeat(n % 10 === 0 ? 300 : 40) }] });
  }
  return messages;
}

export async function bench(): Promise<string[]> {
  const history = bigHistory();
  const chars = JSON.stringify(history).length;
  const run = (o: Partial<CompactOptions>) => () =>
    serialiseInput(compactForWire(history, { model: "gpt-5", threshold: 120_000, window: 400_000, harder: false, instructionsChars: 10_000, ...o }).messages, { model: "gpt-5" });
  const label = `${history.length} msgs, ${chars.toLocaleString("en-US")} chars`;
  return [
    `serialise+compact (elide, drop reasoning) ${label}: median ${(await medianMs(30, run({}))).toFixed(2)} ms`,
    `serialise+compact (over a 128k window: drop exchanges) ${label}: median ${(await medianMs(30, run({ window: 128_000 }))).toFixed(2)} ms`,
    `serialise+compact harder ${label}: median ${(await medianMs(30, run({ harder: true }))).toFixed(2)} ms`,
    `serialise only ${label}: median ${(await medianMs(30, () => serialiseInput(history, { model: "gpt-5" }))).toFixed(2)} ms`,
  ];
}
