import { z } from "zod";
import { globToRegExp } from "./glob-match.ts";

export const DECISIONS = ["allow", "ask", "deny"] as const;

const ruleSchema = z.strictObject({
  decision: z.enum(DECISIONS, {
    error: (issue) => `unknown decision ${JSON.stringify(issue.input)}: use "allow", "ask" or "deny"`,
  }),
  tool: z.string().min(1, "tool must be a tool name or \"*\"").optional(),
  pattern: z.string().min(1, "pattern must not be empty"),
});

/** The `permissions` array of config.json (and SHIRO_PERMISSIONS): `{decision, tool?, pattern}` rules, the last match wins. */
export const permissionsSchema = z.array(ruleSchema);
/** `source`: where the rule was given (`config.json`, `SHIRO_PERMISSIONS`, `--deny`), named when it denies. */
export type Rule = z.infer<typeof ruleSchema> & { source?: string };

/**
 * The last rule of a tool matching a subject: one of its `names`, or one of its `aliases` when the rule
 * denies or asks (an alias is a form of the command an allow must not reach: `rm x` of `sudo rm x`).
 */
export function lastMatchingRule(rules: readonly Rule[], tool: string, names: readonly string[], aliases: readonly string[], mode: "path" | "command", home: string): Rule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.tool !== undefined && !ruleNamesTool(rule.tool, tool)) continue;
    const pattern = globToRegExp(rule.pattern, mode, home);
    if (names.some((n) => pattern.test(n)) || (rule.decision !== "allow" && aliases.some((a) => pattern.test(a)))) return rule;
  }
  return undefined;
}

/** A rule's tool: `*` for every tool, a name, or a glob of names (`mcp__github__*`, every tool of one MCP server). */
export const ruleNamesTool = (ruleTool: string, tool: string): boolean =>
  ruleTool === "*" || ruleTool === tool || (ruleTool.includes("*") && globToRegExp(ruleTool, "command", "").test(tool));

export const describeRule = (rule: Rule) => `permission rule ${rule.decision}${rule.tool && rule.tool !== "*" ? ` ${rule.tool}` : ""} ${rule.pattern}`;
