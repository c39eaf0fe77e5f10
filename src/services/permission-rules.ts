import { join } from "node:path";
import { permissionsSchema, type Rule } from "../guard/rules.ts";
import { issuePath } from "../store/read-json.ts";
import { didYouMean } from "../text/nearest.ts";
import { codingTools } from "../tools/coding-tools.ts";
import { MCP_PREFIX } from "../mcp/tool-names.ts";
import type { Flags } from "./settings.ts";
import type { Config } from "./settings.ts";
import { UsageError } from "../exit/usage-error.ts";

/** The tools a rule can judge (the others never ask), or every one of them. */
const RULE_TOOLS = [...codingTools.map((tool) => tool.name), "*"];
// MCP tools are known only once their servers answer: a rule may name any (`mcp__github__*` too).
const isRuleTool = (tool: string) => RULE_TOOLS.includes(tool) || tool.startsWith(MCP_PREFIX);
const EXAMPLE = `[{"decision":"allow","tool":"bash","pattern":"npm test*"}]`;

/**
 * Every rule in force, in the order they are read — config.json's, then SHIRO_PERMISSIONS', then
 * `--allow`/`--deny` as given — so the last matching rule wins across them all, as within one file.
 * A rule names a tool that exists: a deny rule for a misspelt tool would silently never match.
 */
export function permissionRules(config: Pick<Config, "home" | "permissions" | "envPermissions">, flags: Flags["rules"]): Rule[] {
  const file = checked(config.permissions, (at) => `permissions${at} in ${join(config.home, "config.json")}`, "config.json");
  const env = config.envPermissions === undefined ? [] : checked(envJson(config.envPermissions), (at) => `SHIRO_PERMISSIONS${at}`, "SHIRO_PERMISSIONS");
  return [...file, ...env, ...flags.map(flagRule)];
}

function checked(raw: unknown, where: (at: string) => string, source: string): Rule[] {
  const rules = permissionsSchema.safeParse(raw);
  if (!rules.success) {
    const issue = rules.error.issues[0]!;
    throw new UsageError(`${where(issuePath(issue.path))}: ${issue.message}`);
  }
  rules.data.forEach((rule, i) => {
    if (rule.tool !== undefined && !isRuleTool(rule.tool)) throw new UsageError(`${where(`[${i}].tool`)}: ${unknownTool(rule.tool)}`);
  });
  return rules.data.map((rule) => ({ ...rule, source }));
}

function envJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`SHIRO_PERMISSIONS is not JSON (${(err as Error).message}): set it to an array of rules, such as ${EXAMPLE}`);
  }
}

/** `--allow bash`, `--allow 'bash:npm test*'`, `--deny '*:**\/*.lock'`: a tool alone means every call of it. */
function flagRule({ decision, spec }: Flags["rules"][number]): Rule {
  const colon = spec.indexOf(":");
  const tool = colon < 0 ? spec : spec.slice(0, colon);
  const pattern = colon < 0 ? "**" : spec.slice(colon + 1);
  const flag = `--${decision} ${JSON.stringify(spec)}`;
  if (!isRuleTool(tool)) throw new UsageError(`${flag}: ${unknownTool(tool)}${colon < 0 ? `; a rule is tool or tool:pattern (bash:npm test*, *:${spec})` : ""}`);
  if (pattern === "") throw new UsageError(`${flag}: nothing after the colon; write a pattern (${tool}:…) or the tool alone (${tool})`);
  return { decision, tool, pattern, source: `--${decision}` };
}

const unknownTool = (tool: string) =>
  `unknown tool ${JSON.stringify(tool)}${didYouMean(tool, RULE_TOOLS) || ` (rules name ${RULE_TOOLS.join(", ")})`}`;
