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
 * (a session may switch models). Derived from the messages so the totals can never drift from them:
 * `from` holds the totals of the first `from.count` of them, summed before in the same order, and
 * only the messages after those are added (a long session's totals at each turn's end).
 */
export function sessionTotals(messages: readonly Message[], from?: SessionTotals & { count: number }): SessionTotals {
  let usage = from?.usage ?? emptyUsage();
  let cost: number | undefined = from ? from.costUsd : 0;
  const unpriced = new Set<string>(from?.unpricedModels);
  // One price look-up per model, not per response: a resumed session of 10,000 answers is summed at its first turn.
  const prices = new Map<string, ((usage: Usage) => number | undefined)>();
  const priced = (model: string) => {
    let cost = prices.get(model);
    if (!cost) prices.set(model, (cost = costOf(model)));
    return cost;
  };
  for (let i = from?.count ?? 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.usage) continue;
    usage = addUsage(usage, m.usage);
    const c = priced(m.model)(m.usage);
    if (c === undefined) unpriced.add(m.model);
    else if (cost !== undefined) cost += c;
  }
  return { usage, costUsd: unpriced.size ? undefined : cost, unpricedModels: [...unpriced] };
}
