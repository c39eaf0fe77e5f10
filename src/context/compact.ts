import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { Message } from "../session/messages.ts";
import type { Compaction } from "./compaction.ts";
import { estimateNextRequest, tokensFromChars } from "./estimate.ts";
import { assembleInput, NO_COMPACTION, type WirePlan } from "./assemble-input.ts";
import { dropSavings } from "./drop-exchanges.ts";
import { createWireLedger, type WireLedger } from "./wire-ledger.ts";
import { historyFloor } from "./overflow-floor.ts";
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
  /** Characters of the request outside the history (instructions, tool definitions, the trailer). */
  instructionsChars: number;
};

export type CompactResult = {
  /** The history's `input` items. The session's history is never changed. */
  readonly input: ResponseInputItem[];
  /** The history as the wire takes it: its first items known only as JSON (`assembleInput`), then these. */
  wire?: { head: Uint8Array; tail: ResponseInputItem[] };
  /** Estimated tokens of the request. */
  tokens: number;
  compaction?: Compaction;
  /** Even dropping every old exchange does not fit: the caller should fall back to a `/compact` summary. */
  needsSummary?: boolean;
};

/** How far to go on one rung of the ladder, in tokens and calls. */
type Rung = {
  target: number;
  /** Characters allowed over the target: the newest step, which the model has not seen yet. */
  allowance: number;
  /** Calls from this one on keep their output. */
  keepFrom: number;
  /** Elide every call before `keepFrom` and drop all old reasoning, needed or not. */
  thorough: boolean;
  keepExchanges: number;
};

// Each move of a cut costs the prompt cache everything after it, so a cut moves only in steps that
// take a good share of the target off: the requests after it grow back into that room unchanged.
const ELIDE_STEP_SHARE = 0.5;
// Dropping loses detail (a note line stays per call): smaller steps.
const DROP_STEP_SHARE = 0.125;
const DROP_GROUP = 16;
// After an overflow the estimate proved too low, so the harder target leaves a wide margin.
const HARDER_SHARE_OF_WINDOW = 0.6;

/**
 * Shrinks what goes on the wire so that a request carries at most the threshold plus its newest
 * step, lossless first: (1) elide old outputs, the oldest first; (2) if eliding every old one is not
 * enough, drop old reasoning; (3) if that is not enough, drop whole oldest exchanges behind a note
 * of what they did. Over the window, only the newest two outputs are kept. Work is proportional to
 * what changed since the ledger's last request, not to the history.
 */
export function compactForWire(messages: readonly Message[], opts: CompactOptions, ledger: WireLedger = createWireLedger()): CompactResult {
  const { n, threshold, whole, tokensBefore, scale, tokensOf, limit } = measure(messages, opts, ledger);
  const { instructionsChars } = opts;
  // The newest step: the newest response and what came after it.
  const tail = Math.max(0, ledger.lastAssistantBefore(n));
  const tailChars = ledger.charsBefore(n) - ledger.charsBefore(tail);
  if (!opts.harder && tokensOf(whole - tailChars) <= threshold && tokensBefore <= limit) return { input: assembleInput(ledger, NO_COMPACTION).items, tokens: tokensBefore };

  const calls = ledger.callsBefore(n);
  const thorough = (target: number): Rung => ({ target, allowance: 0, keepFrom: Math.max(0, calls - 2), thorough: true, keepExchanges: 2 });
  const rungs = opts.harder
    ? [thorough(Math.min(threshold, limit))]
    : [{ target: threshold, allowance: tailChars, keepFrom: ledger.callsBefore(tail), thorough: false, keepExchanges: 4 }, thorough(threshold)];
  let plan!: WirePlan;
  let assembled!: ReturnType<typeof assembleInput>;
  let tokens = 0;
  for (const rung of rungs) {
    plan = planFor(ledger, rung, { instructionsChars, scale });
    assembled = assembleInput(ledger, plan);
    tokens = tokensOf(assembled.chars + instructionsChars);
    if (tokens <= limit) break;
  }
  const changed = assembled.unchanged !== n || plan.drop > 0;
  const { items, head } = assembled;
  let input: ResponseInputItem[] | undefined = head ? undefined : items;
  return {
    get input() {
      return (input ??= [...(JSON.parse(new TextDecoder().decode(head)) as ResponseInputItem[]), ...items]);
    },
    ...(head ? { wire: { head, tail: items } } : {}),
    tokens,
    ...(changed ? { compaction: { messagesBefore: n, messagesAfter: assembled.unchanged, tokensBefore, tokensAfter: tokens } } : {}),
    ...(tokens > limit ? { needsSummary: true } : {}),
  };
}

/** The ledger brought up to `messages`, and the figures every plan for them is judged by. */
function measure(messages: readonly Message[], opts: CompactOptions, ledger: WireLedger) {
  ledger.sync(messages, opts.model);
  const n = ledger.entries.length;
  const threshold = Math.min(opts.threshold, Math.floor(opts.window * THRESHOLD_SHARE_OF_WINDOW));
  const whole = ledger.charsBefore(n) + opts.instructionsChars;
  const tokensBefore = estimateNextRequest(ledger, opts.instructionsChars);
  // Real usage may show this history is denser than chars/4; estimates of the smaller payloads follow suit.
  const scale = Math.max(1, tokensBefore / tokensFromChars(whole));
  const tokensOf = (chars: number) => Math.ceil(tokensFromChars(chars) * scale);
  const limit = opts.harder ? Math.floor(opts.window * HARDER_SHARE_OF_WINDOW) : opts.window;
  return { n, threshold, whole, tokensBefore, scale, tokensOf, limit };
}

/**
 * Whether `compactForWire` would answer `needsSummary` whatever it planned, known without planning:
 * even the floor no plan gets under is over the limit. Then it reports a compaction from `tokensBefore`.
 */
export function overflowsEveryPlan(messages: readonly Message[], opts: CompactOptions, ledger: WireLedger): { tokensBefore: number } | undefined {
  const { n, whole, tokensBefore, tokensOf, limit } = measure(messages, opts, ledger);
  // The floor is at most the history with every call elided and no reasoning: when that fits, the
  // history is not walked (nearly every request).
  if (tokensOf(whole - ledger.reasoningBefore(n) - ledger.savingsBefore(ledger.callsBefore(n))) <= limit) return undefined;
  const floor = historyFloor(ledger);
  return floor.changes && tokensOf(floor.chars + opts.instructionsChars) > limit ? { tokensBefore } : undefined;
}

/** The least compaction that brings the request within the rung's target, each cut moved in coarse steps. */
function planFor(ledger: WireLedger, rung: Rung, o: { instructionsChars: number; scale: number }): WirePlan {
  const n = ledger.entries.length;
  const targetChars = (rung.target * 4) / o.scale;
  const over = (chars: number) => chars - rung.allowance - targetChars;
  const allElided = ledger.savingsBefore(rung.keepFrom);
  let total = ledger.charsBefore(n) + o.instructionsChars;
  const dropReasoning = rung.thorough || over(total - allElided) > 0;
  // Reasoning of every response but the latest: the model's own text and calls already summarise it.
  if (dropReasoning) total -= ledger.reasoningBefore(Math.max(0, ledger.lastAssistantBefore(n)));
  const cut = rung.thorough ? rung.keepFrom : steppedCut((c) => ledger.savingsBefore(c), rung.keepFrom, over(total), targetChars * ELIDE_STEP_SHARE);
  const rest = over(total - allElided);
  // When not even dropping all is enough (the notes have outgrown the threshold), the drop moves as
  // the droppable exchanges do, and each move rewrites the note at the front: they grow in groups.
  let droppable = Math.max(0, ledger.exchanges.length - rung.keepExchanges);
  if (!rung.thorough && droppable >= DROP_GROUP) droppable -= droppable % DROP_GROUP;
  // Below what the instructions and tools alone take, no threshold can be held: steps are not lost
  // chasing it (until the window needs them gone).
  const reachable = rung.thorough || o.instructionsChars < targetChars;
  const drop = reachable && cut === rung.keepFrom && rest > 0 ? steppedCut((x) => dropSavings(ledger, x), droppable, rest, targetChars * DROP_STEP_SHARE) : 0;
  return { cut, dropReasoning, drop };
}

/**
 * The smallest count (≤ `max`) whose savings cover `need` rounded up to whole steps, or `max`. As the
 * history grows, the need grows and the count stays put until the need crosses the next step.
 */
function steppedCut(saved: (count: number) => number, max: number, need: number, step: number): number {
  if (need <= 0) return 0;
  const goal = Math.ceil(need / Math.max(1, step)) * Math.max(1, step);
  if (saved(max) < goal) return max;
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (saved(mid) >= goal) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
