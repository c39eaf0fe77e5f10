import type { Usage } from "../session/messages.ts";

/** USD per 1M tokens. `cachedInput` is the price of input tokens served from the prompt cache. */
export type Price = { input: number; cachedInput: number; output: number };

const price = (input: number, cachedInput: number, output: number): Price => ({ input, cachedInput, output });

/** OpenAI list prices (standard tier, 2025). Models without a cache discount repeat the input price. */
export const PRICES: Readonly<Record<string, Price>> = {
  "gpt-5.2": price(1.75, 0.175, 14),
  "gpt-5.1": price(1.25, 0.125, 10),
  "gpt-5.1-codex": price(1.25, 0.125, 10),
  "gpt-5.1-codex-max": price(1.25, 0.125, 10),
  "gpt-5.1-codex-mini": price(0.25, 0.025, 2),
  "gpt-5.1-chat-latest": price(1.25, 0.125, 10),
  "gpt-5": price(1.25, 0.125, 10),
  "gpt-5-codex": price(1.25, 0.125, 10),
  "gpt-5-chat-latest": price(1.25, 0.125, 10),
  "gpt-5-mini": price(0.25, 0.025, 2),
  "gpt-5-nano": price(0.05, 0.005, 0.4),
  "gpt-5-pro": price(15, 15, 120),
  "gpt-4.1": price(2, 0.5, 8),
  "gpt-4.1-mini": price(0.4, 0.1, 1.6),
  "gpt-4.1-nano": price(0.1, 0.025, 0.4),
  "gpt-4o": price(2.5, 1.25, 10),
  "gpt-4o-mini": price(0.15, 0.075, 0.6),
  "o3": price(2, 0.5, 8),
  "o3-pro": price(20, 20, 80),
  "o3-mini": price(1.1, 0.55, 4.4),
  "o4-mini": price(1.1, 0.275, 4.4),
  "o1": price(15, 7.5, 60),
  "o1-mini": price(1.1, 0.55, 4.4),
  "o1-pro": price(150, 150, 600),
  "codex-mini-latest": price(1.5, 0.375, 6),
};

/** config.json's `pricing`: USD per 1M tokens by model; `cachedInput` defaults to `input` (no cache discount). */
export type Pricing = Readonly<Record<string, { input: number; cachedInput?: number; output: number }>>;

let configured: Readonly<Record<string, Price>> = {};
let key: string | undefined;

/**
 * The prices config.json sets, which win over the list. Set once by the CLI, like the environment,
 * so every total agrees: the `--json` result, `--max-cost`, the session list and `/cost`.
 */
export function configurePrices(pricing: Pricing): void {
  configured = Object.fromEntries(Object.entries(pricing).map(([model, p]) => [model, price(p.input, p.cachedInput ?? p.input, p.output)]));
  key = undefined;
}

/** Which prices are in force (a hash of them): a cost summed under other prices is summed again. */
export const pricesKey = (): string => (key ??= Bun.hash(JSON.stringify([PRICES, configured])).toString(36));

/** Dated snapshots ("gpt-4.1-2025-04-14") cost what their alias costs; nothing else is guessed. */
export function priceOf(model: string): Price | undefined {
  const alias = model.replace(/-\d{4}-\d{2}-\d{2}$/, "");
  return configured[model] ?? configured[alias] ?? PRICES[model] ?? PRICES[alias];
}

/**
 * The cost of one response. The API counts cached tokens inside `inputTokens` and reasoning tokens
 * inside `outputTokens`, so each is billed once. Unknown model → undefined (shown as unknown, not 0).
 */
export function costUsd(model: string, usage: Usage): number | undefined {
  return costOf(model)(usage);
}

/** `costUsd` for one model, its price looked up once. */
export function costOf(model: string): (usage: Usage) => number | undefined {
  const p = priceOf(model);
  if (!p) return () => undefined;
  return (usage) => {
    const uncached = Math.max(0, usage.inputTokens - usage.cachedTokens);
    return (uncached * p.input + usage.cachedTokens * p.cachedInput + usage.outputTokens * p.output) / 1_000_000;
  };
}
