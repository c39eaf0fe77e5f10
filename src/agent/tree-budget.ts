import { costUsd } from "../pricing/cost.ts";
import { addUsage, emptyUsage, type Usage } from "../session/messages.ts";

/**
 * What one turn of an agent and every child it started have used so far, each at its own model's
 * price: `--max-cost` and the totals a run reports cover the whole tree.
 */
export type TreeBudget = {
  /** An agent's usage so far in this turn (it replaces what it told before). */
  report(agentId: string, model: string, usage: Usage): void;
  usage(): Usage;
  /** Undefined while any agent's model has no price. */
  costUsd(): number | undefined;
};

export function createTreeBudget(): TreeBudget {
  const used = new Map<string, { model: string; usage: Usage }>();
  return {
    report: (agentId, model, usage) => void used.set(agentId, { model, usage }),
    usage: () => [...used.values()].reduce((sum, { usage }) => addUsage(sum, usage), emptyUsage()),
    costUsd() {
      let total = 0;
      for (const { model, usage } of used.values()) {
        const cost = costUsd(model, usage);
        if (cost === undefined) return undefined;
        total += cost;
      }
      return total;
    },
  };
}
