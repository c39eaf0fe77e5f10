/** The `long` job shared by the compaction e2e test and its bench: many dependent reads of large files. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./run-shiro.ts";
import { firstUserText, sequenceModel, visibleOutputs } from "./scripts.ts";
import { cachedTokens, estimateInputTokens, promptKey } from "./prompt-tokens.ts";
import type { RecordedRequest } from "./strict-server.ts";

export const CODEWORD = "PELICAN-7731";
export const codewordIn = (text: string) => /codeword is (\S+?)\./.exec(text)?.[1] ?? "no codeword";
/** A task whose last demand (the codeword) only the first user message answers. */
export const task = (what: string) => `${what} The codeword is ${CODEWORD}. Tell me the codeword at the end.`;

const reads = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ name: "read_file", arguments: { path: `${prefix}${i}.txt` } }));

/** n dependent reads of `<prefix><i>.txt`, then an answer only a model still seeing the first user message gets right. */
export const readingModel = (prefix: string, n: number) =>
  sequenceModel(reads(prefix, n), (input) => `read ${visibleOutputs(input).length} files; codeword ${codewordIn(firstUserText(input))}`);

/** A temp folder with n files `<prefix><i>.txt` of `chars` characters each. */
export function readingProject(prefix: string, n: number, chars: number): string {
  const dir = tempDir("compaction");
  for (let i = 0; i < n; i++) {
    const line = `${prefix}${i}: the quick brown fox jumps over the lazy dog\n`;
    writeFileSync(join(dir, `${prefix}${i}.txt`), line.repeat(Math.ceil(chars / line.length)).slice(0, chars));
  }
  return dir;
}

/** The share of each request after the first that the server's prompt cache reused (its `cached_tokens` over its input). */
export function cachedShares(reqs: readonly RecordedRequest[]): number[] {
  return reqs.slice(1).map((q, k) => cachedTokens(promptKey(reqs[k]!.body), promptKey(q.body)) / estimateInputTokens(q.body));
}

export const LONG_JOB = { prefix: "long", files: 40, chars: 4_000, compactAt: 20_000, model: "gpt-5-long" } as const;
export const longJobPrompt = () => task(`Read ${LONG_JOB.prefix}0.txt to ${LONG_JOB.prefix}${LONG_JOB.files - 1}.txt one by one.`);
