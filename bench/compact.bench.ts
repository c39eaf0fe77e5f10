/**
 * Serialise + compact, in process: a request composed from scratch over histories of 2,000 to
 * 100,000 messages (what a resume or `shiro inspect` pays once), and the next request of a running
 * session with its ledger kept (what every step pays: must not grow with the history).
 */
import type { Message } from "../src/session/messages.ts";
import { composeRequest, type RequestSpec } from "../src/context/compose-request.ts";
import { createWireLedger } from "../src/context/wire-ledger.ts";
import { median, medianMs } from "./median.ts";

function step(messages: Message[], n: number) {
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

function history(size: number): Message[] {
  const messages: Message[] = [{ role: "user", text: "Refactor the parser and make every test pass." }];
  for (let n = 0; messages.length < size; n++) step(messages, n);
  return messages;
}

const spec = (o: Partial<RequestSpec["limits"]> & { harder?: boolean } = {}): RequestSpec => ({
  model: "gpt-5",
  instructions: "You are shiro. ".repeat(700),
  tools: [],
  params: { stream: true },
  limits: { threshold: o.threshold ?? 120_000, window: o.window ?? 400_000 },
  harder: o.harder ?? false,
});

export async function bench(): Promise<string[]> {
  const lines: string[] = [];
  const big = history(2_000);
  const label = `${big.length} msgs, ${JSON.stringify(big).length.toLocaleString("en-US")} chars`;
  for (const [what, s] of [["elide, drop reasoning", spec()], ["over a 128k window", spec({ window: 128_000 })], ["harder", spec({ harder: true })]] as const)
    lines.push(`compose from scratch (${what}) ${label}: median ${(await medianMs(30, () => composeRequest(big, s))).toFixed(2)} ms`);

  for (const size of [2_000, 10_000, 100_000]) {
    const messages = history(size);
    const scratch = await medianMs(size > 10_000 ? 3 : 10, () => composeRequest(messages, spec()));
    // A running session: the ledger saw the history; each request adds one step.
    const ledger = createWireLedger();
    const first = composeRequest(messages, spec(), ledger);
    const times: number[] = [];
    for (let n = 0; n < 40; n++) {
      step(messages, size + n);
      const start = performance.now();
      composeRequest(messages, spec(), ledger);
      times.push(performance.now() - start);
    }
    const fits = first.needsSummary ? " (even its notes overflow the window: the summary fallback's case)" : ` (${first.tokens.toLocaleString("en-US")} tokens)`;
    lines.push(`${size.toLocaleString("en-US")}-message history${fits}: from scratch ${scratch.toFixed(2)} ms; next request with the ledger kept ${median(times).toFixed(3)} ms (median of 40)`);
  }
  return lines;
}
