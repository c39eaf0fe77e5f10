import { isAbsolute, relative, resolve } from "node:path";
import type { Check, GateCall } from "../guard/verdict.ts";
import { listInstalled } from "./list-installed.ts";
import type { DenyRule, PluginManifest } from "./plugin-manifest.ts";

type CompiledRule = { tools: Set<string>; path?: RegExp; command?: RegExp; reason: string };

/** One Check per installed plugin, for the permission chain; each denies with `plugin <name>: <reason>`. */
export async function loadPluginChecks(home: string, warn: (line: string) => void = () => {}): Promise<Check[]> {
  const installed = await listInstalled(home, "plugin", warn);
  return installed.flatMap((item) => (item.kind === "plugin" ? [pluginCheck(item.manifest)] : []));
}

/** Compiles a validated manifest once; the returned check runs before every tool call. */
export function pluginCheck(manifest: PluginManifest): Check {
  const rules = manifest.deny.map(compileRule);
  return (call) => {
    const hit = rules.find((rule) => ruleMatches(rule, call));
    if (!hit) return undefined;
    return { decision: "deny", reason: `plugin ${manifest.name}: ${hit.reason}`, rule: `plugin:${manifest.name}` };
  };
}

function compileRule(rule: DenyRule): CompiledRule {
  return {
    tools: new Set(rule.tools),
    path: rule.pathPattern === undefined ? undefined : new RegExp(rule.pathPattern),
    command: rule.commandPattern === undefined ? undefined : new RegExp(rule.commandPattern),
    reason: rule.reason,
  };
}

function ruleMatches(rule: CompiledRule, call: GateCall): boolean {
  if (!rule.tools.has("*") && !rule.tools.has(call.tool)) return false;
  if (rule.path) return (call.subject.paths ?? []).some((path) => pathForms(path, call.root).some((form) => rule.path!.test(form)));
  if (rule.command) return call.subject.command !== undefined && rule.command.test(call.subject.command);
  return true;
}

// A pattern should match however the path was written: as given, absolute, and relative to the project.
function pathForms(path: string, root: string): string[] {
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  return [path, absolute, relative(root, absolute)];
}
