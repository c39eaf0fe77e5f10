import { z } from "zod";
import { nameProblem } from "./check-name.ts";
import { hiddenCharProblem, plainTextSchema } from "../text/hidden-chars.ts";
import { LIMITS } from "./limits.ts";
import { linearPattern } from "../pattern/linear-pattern.ts";
import { issuePath } from "../store/read-json.ts";

const denyRuleSchema = z.strictObject({
  /** Tool names the rule applies to; `*` means every tool. */
  tools: z
    .array(z.string().regex(/^(\*|[A-Za-z][\w-]{0,63})$/, "must be a tool name or *"))
    .min(1)
    .max(20),
  pathPattern: z.string().optional(),
  commandPattern: z.string().optional(),
  reason: plainTextSchema(200),
});
export type DenyRule = z.infer<typeof denyRuleSchema>;

const manifestSchema = z.strictObject({
  name: z.string(),
  description: plainTextSchema(LIMITS.descriptionLength),
  deny: z.array(denyRuleSchema).min(1).max(LIMITS.rulesPerPlugin),
});
export type PluginManifest = z.infer<typeof manifestSchema>;

export type ManifestParse = { ok: true; manifest: PluginManifest } | { ok: false; problem: string };

/** Validates a plugin manifest: exactly the schema's keys, and every pattern short, visible and linear-time. */
export function parsePluginManifest(text: string): ManifestParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: "the manifest is not valid JSON" };
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: describeIssue(parsed.error.issues[0]!) };
  const manifest = parsed.data;
  const badName = nameProblem(manifest.name);
  if (badName) return { ok: false, problem: badName };
  for (const [index, rule] of manifest.deny.entries()) {
    const problem = ruleProblem(rule);
    if (problem) return { ok: false, problem: `deny[${index}]: ${problem}` };
  }
  return { ok: true, manifest };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issuePath(issue.path) || "manifest";
  if (issue.code === "unrecognized_keys") {
    return `${where} has key ${issue.keys.map((key) => JSON.stringify(key)).join(", ")} beyond the schema; a plugin is deny rules only and carries no code`;
  }
  return `${where}: ${issue.message}`;
}

function ruleProblem(rule: DenyRule): string | undefined {
  if (rule.pathPattern !== undefined && rule.commandPattern !== undefined) {
    return "a rule has a pathPattern or a commandPattern, not both";
  }
  for (const [key, pattern] of [
    ["pathPattern", rule.pathPattern],
    ["commandPattern", rule.commandPattern],
  ] as const) {
    if (pattern === undefined) continue;
    const problem = patternProblem(pattern);
    if (problem) return `${key} ${problem}`;
  }
  return undefined;
}

/** Why a pattern may not run before every tool call, or undefined when it may. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return "is empty";
  if (pattern.length > LIMITS.patternLength) return `is ${pattern.length} characters, over the ${LIMITS.patternLength} allowed`;
  // The preview shows the pattern as written: a hidden character would make it read as another one.
  const hidden = hiddenCharProblem(pattern);
  if (hidden) return hidden;
  const linear = linearPattern(pattern);
  if (!linear.ok) return linear.problem;
  // Only compiled, never run: what the rule's author tested with JS must mean what the matcher reads.
  try {
    new RegExp(pattern);
  } catch (err) {
    return `does not compile (${(err as Error).message})`;
  }
  return undefined;
}
