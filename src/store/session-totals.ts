import { addUsage, emptyUsage, type Message, type Usage } from "../session/messages.ts";
import { costOf } from "./cost.ts";

export type SessionTotals = {
  usage: Usage;
  /** undefined when any response came from a model without a known price. */
  costUsd: number | undefined;
  /** Models that had usage but no price, for the "cost unknown" explanation. */
  unpricedModels: string[];
};

/**
 * Tokens and cost summed over every response in the session, each priced by the model that made it
 * (a session may switch models). Derived from the messages so the totals can never drift from them.
 */
export function sessionTotals(messages: readonly Message[]): SessionTotals {
  let usage = emptyUsage();
  let cost: number | undefined = 0;
  const unpriced = new Set<string>();
  // One price look-up per model, not per response: a resumed session of 10,000 answers is summed at its first turn.
  const prices = new Map<string, ((usage: Usage) => number | undefined)>();
  const priced = (model: string) => {
    let cost = prices.get(model);
    if (!cost) prices.set(model, (cost = costOf(model)));
    return cost;
  };
  for (const m of messages) {
    if (m.role !== "assistant" || !m.usage) continue;
    usage = addUsage(usage, m.usage);
    const c = priced(m.model)(m.usage);
    if (c === undefined) unpriced.add(m.model);
    else if (cost !== undefined) cost += c;
  }
  return { usage, costUsd: unpriced.size ? undefined : cost, unpricedModels: [...unpriced] };
}
