import { randomBytes } from "node:crypto";
import { medianMs } from "./median.ts";
import { createRedactor } from "../src/secrets/redact.ts";

const RUNS = 20;
const SIZE = 1_000_000;

/** Redacting 20 secret values from a 1 MB tool output: none present (nearly every output), and some present. */
export async function bench(): Promise<string[]> {
  const secrets = Array.from({ length: 20 }, (_, i) => ({ name: `SECRET_${i}`, value: randomBytes(16 + i).toString("base64url") }));
  const redactor = createRedactor(secrets);
  // A fresh string per run: JavaScriptCore caches a regex's result for the same input string.
  const outputs = (withHits: boolean) =>
    Array.from({ length: RUNS + 1 }, (_, run) => {
      let s = "";
      for (let i = 0; s.length < SIZE; i++) {
        const hit = withHits && i % 250 === 0 ? ` ${secrets[i % 20]!.value}` : "";
        s += `src/module${i % 97}.ts:${i + run}: export const value${i} = compute(${i}, "some text");${hit}\n`;
      }
      return s;
    });
  const clean = outputs(false);
  const dirty = outputs(true);
  const chunked = (s: string) => Array.from({ length: Math.ceil(s.length / 4096) }, (_, i) => s.slice(i * 4096, (i + 1) * 4096));
  const cleanChunks = clean.map(chunked);
  const dirtyChunks = dirty.map(chunked);
  const each = (inputs: unknown[], fn: (input: any) => unknown) => {
    let next = 0;
    return () => fn(inputs[next++ % inputs.length]);
  };
  const text = (s: string) => redactor.text(s);
  const stream = (chunks: string[]) => {
    const redacting = redactor.stream();
    for (const chunk of chunks) redacting.push(chunk);
    redacting.flush();
  };
  const hits = redactor.text(dirty[0]!).split("[redacted ").length - 1;
  const ms = async (inputs: unknown[], fn: (input: any) => unknown) => (await medianMs(RUNS, each(inputs, fn))).toFixed(2);
  return [
    `redact 20 values in 1 MB, none present: median ${await ms(clean, text)} ms (aim < 10 ms)`,
    `redact 20 values in 1 MB, ${hits} present: median ${await ms(dirty, text)} ms`,
    `the same streamed in 4 KB chunks, none / some present: median ${await ms(cleanChunks, stream)} / ${await ms(dirtyChunks, stream)} ms`,
  ];
}
