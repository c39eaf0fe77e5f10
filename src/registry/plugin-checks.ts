import { isAbsolute, relative, resolve } from "node:path";
import type { Check, GateCall } from "../guard/verdict.ts";
import { LIMITS } from "./limits.ts";
import { linearPattern, type LinearPattern } from "../pattern/linear-pattern.ts";
import { listInstalled } from "./list-installed.ts";
import type { DenyRule, PluginManifest } from "./plugin-manifest.ts";

type CompiledRule = { tools: Set<string>; path?: LinearPattern; command?: LinearPattern; reason: string };

/** What is left of one check's work allowance (matcher steps); see LIMITS.checkWork. */
type Budget = { left: number };

/** One Check per installed plugin, for the permission chain; each denies with `plugin <name>: <reason>`. */
export async function loadPluginChecks(home: string, warn: (line: string) => void = () => {}): Promise<Check[]> {
  const installed = await listInstalled(home, "plugin", warn);
  return installed.flatMap((item) => (item.kind === "plugin" ? [pluginCheck(item.manifest)] : []));
}

/**
 * Compiles a validated manifest once; the returned check runs before every tool call, synchronously, so
 * its work is capped: linear-time patterns, and an allowance of matcher steps per call that ordinary
 * patterns never come near. A rule that cannot be decided within it refuses the call (a deny rule fails
 * closed), so no plugin can hold a tool call, or Ctrl-C, for more than a few milliseconds.
 */
export function pluginCheck(manifest: PluginManifest): Check {
  const rules = manifest.deny.map(compileRule);
  const deny = (reason: string) => ({ decision: "deny" as const, reason: `plugin ${manifest.name}: ${reason}`, rule: `plugin:${manifest.name}` });
  return (call) => {
    const budget: Budget = { left: LIMITS.checkWork.base };
    for (const [index, rule] of rules.entries()) {
      const hit = ruleMatches(rule, call, budget);
      if (hit === undefined) return deny(`deny[${index}] could not be checked on this call within its work limit, so the call was refused`);
      if (hit) return deny(rule.reason);
    }
    return undefined;
  };
}

function compileRule(rule: DenyRule): CompiledRule {
  return { tools: new Set(rule.tools), path: compiled(rule.pathPattern), command: compiled(rule.commandPattern), reason: rule.reason };
}

function compiled(pattern: string | undefined): LinearPattern | undefined {
  if (pattern === undefined) return undefined;
  const linear = linearPattern(pattern);
  if (!linear.ok) throw new Error(`pattern ${JSON.stringify(pattern)} was not validated: it ${linear.problem}`);
  return linear.pattern;
}

/** true: the rule applies; false: it does not; undefined: the budget ran out before it could tell. */
function ruleMatches(rule: CompiledRule, call: GateCall, budget: Budget): boolean | undefined {
  if (!rule.tools.has("*") && !rule.tools.has(call.tool)) return false;
  if (rule.path) return matchesAny(rule.path, (call.subject.paths ?? []).flatMap((path) => pathForms(path, call.root)), budget);
  if (rule.command) return call.subject.command !== undefined && matchesAny(rule.command, [call.subject.command], budget);
  return true;
}

function matchesAny(pattern: LinearPattern, texts: string[], budget: Budget): boolean | undefined {
  for (const text of texts) {
    budget.left += LIMITS.checkWork.perChar * text.length;
    const { matched, steps } = pattern.run(text, budget.left);
    budget.left -= steps;
    if (matched !== false) return matched;
  }
  return false;
}

// A pattern should match however the path was written: as given, absolute, and relative to the project.
function pathForms(path: string, root: string): string[] {
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  return [path, absolute, relative(root, absolute)];
}
