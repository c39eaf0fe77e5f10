/** `--reasoning-effort` / config `reasoningEffort`: how hard a reasoning model thinks before it answers. */
export const REASONING_EFFORTS = ["minimal", "low", "medium", "high", "xhigh"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

const UP_TO_HIGH: readonly ReasoningEffort[] = ["low", "medium", "high"];

/**
 * The efforts a model takes, from OpenAI's model pages, for the models whose answer is known; `[]` for
 * a model that does not reason. Any other model is not checked: the API (or a compatible server) decides.
 */
const ACCEPTED: Readonly<Record<string, readonly ReasoningEffort[]>> = {
  "gpt-5": ["minimal", ...UP_TO_HIGH],
  "gpt-5-mini": ["minimal", ...UP_TO_HIGH],
  "gpt-5-nano": ["minimal", ...UP_TO_HIGH],
  "gpt-5-codex": UP_TO_HIGH,
  "gpt-5-pro": ["high"],
  "gpt-5.1": UP_TO_HIGH,
  "gpt-5.1-codex": UP_TO_HIGH,
  "gpt-5.1-codex-max": [...UP_TO_HIGH, "xhigh"],
  "gpt-5.2": [...UP_TO_HIGH, "xhigh"],
  o3: UP_TO_HIGH,
  "o3-mini": UP_TO_HIGH,
  "o4-mini": UP_TO_HIGH,
  o1: UP_TO_HIGH,
  "gpt-4.1": [],
  "gpt-4.1-mini": [],
  "gpt-4.1-nano": [],
  "gpt-4o": [],
  "gpt-4o-mini": [],
};

/** Why `model` cannot take `effort`, or undefined when it can (or nothing is known of it). Dated snapshots answer as their alias. */
export function effortProblem(model: string, effort: ReasoningEffort): string | undefined {
  const accepted = ACCEPTED[model] ?? ACCEPTED[model.replace(/-\d{4}-\d{2}-\d{2}$/, "")];
  if (!accepted || accepted.includes(effort)) return undefined;
  if (accepted.length === 0) return `${model} does not reason, so no effort applies to it; leave the effort out or pick a reasoning model`;
  return `${model} accepts ${accepted.join(", ")}; pick one of those`;
}
