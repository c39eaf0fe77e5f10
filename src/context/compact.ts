import type { Message } from "../session/messages.ts";
import type { Compaction } from "../agent/run.ts";
import { estimateNextRequest, tokensFromChars, wireChars } from "./estimate.ts";
import { activeStart } from "../wire/serialise-input.ts";
import { elide, type ElideOptions } from "./elide.ts";
import { dropReasoning } from "./drop-reasoning.ts";
import { dropExchanges } from "./drop-exchanges.ts";
import { THRESHOLD_SHARE_OF_WINDOW } from "./windows.ts";

export type CompactOptions = {
  /** The model the request goes to (reasoning of other models is never sent). */
  model: string;
  /** The soft limit, in tokens (see `thresholdInForce`). */
  threshold: number;
  /** The hard limit: the model's context window as currently known. */
  window: number;
  /** After a `context_length_exceeded`: compact everything that can be, to well under the window. */
  harder: boolean;
  /** Characters of the request outside `input` (instructions and tool definitions). */
  instructionsChars: number;
};

export type CompactResult = {
  /** What to hand to `serialiseInput`. The session's history is never changed. */
  messages: Message[];
  /** Estimated tokens of the request these messages make. */
  tokens: number;
  compaction?: Compaction;
  /** Even dropping every old exchange does not fit: the caller should fall back to a `/compact` summary. */
  needsSummary?: boolean;
};

type Ladder = { elide: ElideOptions; keepRecentExchanges: number; dropStep: number };
const NORMAL: Ladder = { elide: { keepRecent: 8, step: 16 }, keepRecentExchanges: 4, dropStep: 8 };
const HARDER: Ladder = { elide: { keepRecent: 2, step: 8 }, keepRecentExchanges: 2, dropStep: 8 };

// After an overflow the estimate proved too low, so the harder target leaves a wide margin.
const HARDER_SHARE_OF_WINDOW = 0.6;

/**
 * Shrinks what goes on the wire, lossless first: (1) over the threshold, elide old outputs;
 * (2) still over it, drop old reasoning; (3) only if over the window, drop whole oldest exchanges
 * behind a note of what they did (after eliding all but the newest outputs). Every step keeps
 * calls and results paired.
 */
export function compactForWire(messages: readonly Message[], opts: CompactOptions): CompactResult {
  const { model, instructionsChars } = opts;
  const threshold = Math.min(opts.threshold, Math.floor(opts.window * THRESHOLD_SHARE_OF_WINDOW));
  const tokensBefore = estimateNextRequest(messages, { model, instructionsChars });
  if (!opts.harder && tokensBefore <= threshold) return { messages: messages.slice(), tokens: tokensBefore };

  // Real usage may show this history is denser than chars/4; estimates of the smaller payloads follow suit.
  const scale = Math.max(1, tokensBefore / tokensFromChars(wireChars(messages, model) + instructionsChars));
  const tokensOf = (list: readonly Message[]) => Math.ceil(tokensFromChars(wireChars(list, model) + instructionsChars) * scale);

  const ladder = opts.harder ? HARDER : NORMAL;
  const limit = opts.harder ? Math.floor(opts.window * HARDER_SHARE_OF_WINDOW) : opts.window;
  let out = elide(messages, ladder.elide);
  let tokens = tokensOf(out);
  if (opts.harder || tokens > threshold) {
    out = dropReasoning(out);
    tokens = tokensOf(out);
  }
  // Over the window, eliding every output but the newest few (then the newest two) still beats
  // dropping whole steps: the prompt cache is lost either way, but elided calls stay on the wire.
  for (const keepRecent of [ladder.elide.keepRecent, HARDER.elide.keepRecent]) {
    if (tokens <= limit) break;
    out = dropReasoning(elide(messages, { keepRecent, step: 1 }));
    tokens = tokensOf(out);
  }
  if (tokens > limit) {
    const target = Math.min(threshold, limit);
    const excessChars = Math.ceil(((tokens - target) * 4) / scale);
    out = dropExchanges(out, messages, { model, excessChars, keepRecent: ladder.keepRecentExchanges, step: ladder.dropStep }).messages;
    tokens = tokensOf(out);
  }

  const start = activeStart(messages);
  const originals = new Set(messages.slice(start));
  const messagesBefore = messages.length - start;
  let messagesAfter = 0;
  for (let i = activeStart(out); i < out.length; i++) if (originals.has(out[i]!)) messagesAfter++;
  const changed = messagesAfter !== messagesBefore || out.length !== messages.length;
  return {
    messages: out,
    tokens,
    ...(changed ? { compaction: { messagesBefore, messagesAfter, tokensBefore, tokensAfter: tokens } } : {}),
    ...(tokens > limit ? { needsSummary: true } : {}),
  };
}
