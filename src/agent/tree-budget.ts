import { costUsd } from "../pricing/cost.ts";
import { addUsage, emptyUsage, type Usage } from "../session/messages.ts";

/**
 * What one turn of an agent and every child it started have used so far, each at its own model's
 * price: `--max-cost` and the totals a run reports cover the whole tree.
 */
export type TreeBudget = {
  /** An agent's usage so far in this turn, and its calls denied (it replaces what it told before). */
  report(agentId: string, model: string, usage: Usage, denials?: number): void;
  usage(): Usage;
  /** Calls denied anywhere in the tree: a print run's exit code counts them all. */
  denials(): number;
  /** Undefined while any agent's model has no price. */
  costUsd(): number | undefined;
};

export function createTreeBudget(): TreeBudget {
  const used = new Map<string, { model: string; usage: Usage; denials: number }>();
  return {
    report: (agentId, model, usage, denials = 0) => void used.set(agentId, { model, usage, denials }),
    usage: () => [...used.values()].reduce((sum, { usage }) => addUsage(sum, usage), emptyUsage()),
    denials: () => [...used.values()].reduce((sum, { denials }) => sum + denials, 0),
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
