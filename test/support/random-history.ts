/** Seeded random session histories for property tests of compaction. */
import type { AssistantPart, InputImage, Message, ToolResult } from "../../src/session/messages.ts";
import { sealReasoning } from "./check-input.ts";
import { GIF, PNG } from "./image-files.ts";

/** mulberry32: a tiny seeded PRNG, so a failing case can be replayed from its seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Rng = ReturnType<typeof prng>;

export const MODELS = ["gpt-5", "gpt-5-mini", "o3"] as const;

const filler = (rng: Rng, n: number) => {
  const word = rng.pick(["alpha ", "line\n", "const x = 1;\n", "error: nope\n", "{}[]\"\\ "]);
  return word.repeat(Math.ceil(n / word.length)).slice(0, n);
};

function randomArguments(rng: Rng): { name: string; arguments: string } {
  switch (rng.int(0, 4)) {
    case 0:
      return { name: "read_file", arguments: JSON.stringify({ path: `src/f${rng.int(0, 99)}.ts` }) };
    case 1:
      return { name: "bash", arguments: JSON.stringify({ command: `npm test -- ${rng.int(0, 9)}` }) };
    case 2:
      return { name: "grep", arguments: JSON.stringify({ pattern: `TODO${rng.int(0, 9)}`, path: "src" }) };
    case 3:
      return { name: "write_file", arguments: JSON.stringify({ path: `src/w${rng.int(0, 9)}.ts`, content: filler(rng, rng.int(10, 6000)) }) };
    default:
      return { name: "todo", arguments: rng.chance(0.5) ? "{}" : "not json" };
  }
}

const outputSize = (rng: Rng) => (rng.chance(0.1) ? rng.int(5_000, 20_000) : rng.int(0, 900));

const IMAGES: InputImage[] = [
  { mediaType: "image/png", data: PNG.toString("base64") },
  { mediaType: "image/gif", data: GIF.toString("base64") },
];
/** One or two of the same two images (so some are given again), when `on`; none otherwise, and then no number is drawn. */
const someImages = (rng: Rng, on: boolean, p: number): { images?: InputImage[] } => (on && rng.chance(p) ? { images: Array.from({ length: rng.int(1, 2) }, () => rng.pick(IMAGES)) } : {});

/**
 * A history: the task first, then steps with reasoning, parallel calls, pending calls, model switches,
 * markers; with `images`, prompts and results that carry some too.
 */
export function randomHistory(rng: Rng, steps = rng.int(0, 50), opts: { images?: boolean } = {}): Message[] {
  const withImages = opts.images === true;
  const messages: Message[] = [{ role: "user", text: `TASK ${rng.int(0, 1e9)}: ${filler(rng, rng.int(5, 300))}`, ...someImages(rng, withImages, 0.5) }];
  let model: string = rng.pick(MODELS);
  let ids = 0;
  for (let s = 0; s < steps; s++) {
    if (rng.chance(0.08)) messages.push({ role: "user", text: `follow-up ${s}: ${filler(rng, rng.int(1, 2000))}`, ...someImages(rng, withImages, 0.3) });
    if (rng.chance(0.03)) {
      messages.push({ role: "compaction", summary: `## Goal\nsummary ${s}` });
      if (rng.chance(0.7)) messages.push({ role: "user", text: `after summary ${s}` });
    }
    if (rng.chance(0.1)) model = rng.pick(MODELS);
    const parts: AssistantPart[] = [];
    if (rng.chance(0.6)) {
      const id = `rs_${++ids}`;
      parts.push({ type: "reasoning", itemId: id, summary: rng.chance(0.5) ? ["thinking"] : [], ...(rng.chance(0.9) ? { encrypted: sealReasoning(id, model) } : {}) });
    }
    if (rng.chance(0.4)) parts.push({ type: "text", text: rng.chance(0.1) ? "" : filler(rng, rng.int(1, 3000)) });
    const calls = rng.chance(0.8) ? rng.int(1, 4) : 0;
    for (let c = 0; c < calls; c++) parts.push({ type: "tool-call", callId: `call_${++ids}`, ...randomArguments(rng) });
    messages.push({ role: "assistant", model, parts, ...(rng.chance(0.5) ? { usage: { inputTokens: rng.int(100, 200_000), cachedTokens: 0, outputTokens: 10, reasoningTokens: 0 } } : {}) });
    if (calls === 0 || rng.chance(0.05)) continue; // no tool message: an interrupted run
    const results: ToolResult[] = [];
    for (const p of parts)
      if (p.type === "tool-call" && !rng.chance(0.07))
        results.push({ callId: p.callId, output: filler(rng, outputSize(rng)), ...(rng.chance(0.15) ? { isError: true } : {}), ...someImages(rng, withImages, 0.1) });
    messages.push({ role: "tool", results: rng.chance(0.3) ? results.reverse() : results });
  }
  return messages;
}
