/**
 * Cutting a large piped log to fit the context window (what `make | shiro -p` pays before the first
 * request): a 3 MB and a 30 MB log fitted to half of the default 120k-token threshold (target: a 3 MB
 * log under 10 ms); before that, its bytes decoded and checked for binary data: UTF-8 (the common case,
 * checked natively), Latin-1 with two bytes to escape in every 50 lines, and random bytes (binary).
 */
import { fitInput } from "../src/context/fit-input.ts";
import { decodeText } from "../src/text/decode-text.ts";
import { randomBytes } from "../test/support/random-bytes.ts";
import { medianMs } from "./median.ts";

const BUDGET_CHARS = 60_000 * 4;

function buildLog(bytes: number): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = i % 50 === 49 ? `src/module_${i}.c:${i % 400}: warning: unused variable ‘tmp_${i}’ [-Wunused-variable]` : `cc -O2 -Wall -c src/module_${i}.c -o build/module_${i}.o`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

export async function bench(): Promise<string[]> {
  const out: string[] = [];
  for (const mb of [3, 30]) {
    const log = buildLog(mb * 1_000_000);
    const figure = await medianMs(20, () => fitInput(log, BUDGET_CHARS, "stdin"));
    out.push(`fit a ${mb} MB log (${log.length.toLocaleString("en-US")} chars) to ${BUDGET_CHARS.toLocaleString("en-US")} chars: median ${figure.toFixed(2)} ms`);
    const latin1 = Buffer.from(log.replace(/[‘’]/g, "é"), "latin1"); // two bytes to escape in every 50 lines
    const inputs = { "UTF-8": Buffer.from(log), "Latin-1": latin1, "random bytes": randomBytes(mb * 1_000_000) };
    for (const [name, bytes] of Object.entries(inputs)) {
      const ms = await medianMs(5, () => decodeText(bytes));
      out.push(`  decode the ${mb} MB as ${name}: median ${ms.toFixed(1)} ms`);
    }
  }
  return out;
}
