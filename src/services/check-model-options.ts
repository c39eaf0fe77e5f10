import { priceOf } from "../pricing/cost.ts";
import { effortProblem, type ReasoningEffort } from "../wire/reasoning-effort.ts";
import { UsageError } from "../exit/usage-error.ts";

export type ModelOptions = {
  effort?: ReasoningEffort;
  /** The effort and where it was set, as an error names them: `--reasoning-effort xhigh`. */
  effortLabel: string;
  maxCostUsd?: number;
};

/**
 * What the run asks of its model that the model may not give, refused before any call: an effort it
 * does not take (where that is known), or a cost limit it has no price to count against.
 */
export function checkModelOptions(model: string, opts: ModelOptions): void {
  const problem = opts.effort === undefined ? undefined : effortProblem(model, opts.effort);
  if (problem) throw new UsageError(`${opts.effortLabel}: ${problem}`);
  if (opts.maxCostUsd !== undefined && !priceOf(model))
    throw new UsageError(
      `--max-cost needs a priced model, and ${model} has no known price: add it to config.json as "pricing": {"${model}": {"input": 1.25, "cachedInput": 0.125, "output": 10}} (USD per 1M tokens)`,
    );
}
