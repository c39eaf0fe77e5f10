/** Token estimates for the strict server: input size, and the prefix shared with an earlier prompt (the cache). */
import { canonicalJson } from "./canonical-json.ts";

const CHARS_PER_TOKEN = 4;

export const estimateInputTokens = (body: any) =>
  Math.ceil(JSON.stringify({ instructions: body.instructions, tools: body.tools, input: body.input }).length / CHARS_PER_TOKEN);

export const estimateTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

/**
 * The prompt as the cache sees it: instructions, tools, then each input item, key order ignored
 * (the API renders the request into its own template, so only content and order matter).
 */
export const promptKey = (body: any) =>
  [canonicalJson(body.instructions ?? null), canonicalJson(body.tools ?? []), ...(body.input ?? []).map(canonicalJson)].join("\n");

/** Cached tokens: the leading characters two prompts share, in whole tokens. */
export function cachedTokens(previous: string | undefined, current: string): number {
  if (!previous) return 0;
  const limit = Math.min(previous.length, current.length);
  let i = 0;
  while (i < limit && previous.charCodeAt(i) === current.charCodeAt(i)) i++;
  return Math.floor(i / CHARS_PER_TOKEN);
}
