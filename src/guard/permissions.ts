import type { SubjectItem } from "./call-subjects.ts";
import { describeRule, lastMatchingRule, type Rule } from "./rules.ts";
import type { SessionAllows } from "./session-allows.ts";
import type { Verdict } from "./verdict.ts";

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/** The stricter of two verdicts (deny > ask > allow); on a tie the first one stands. */
export const stricter = (a: Verdict, b: Verdict): Verdict => (RANK[b.decision] > RANK[a.decision] ? b : a);

/**
 * Judges a subject by the defaults, then the user's rules (the last match wins), then the session's
 * "always" approvals (which lift an ask, never a deny). A path is judged by each of its names and the
 * strictest wins; a command by the last rule matching any of its forms. A file a command writes is
 * judged by the rules of the tool it stands for (`write_file`).
 */
export function judgeSubject(tool: string, item: SubjectItem, rules: readonly Rule[], session: SessionAllows, home: string): Verdict {
  const judgedAs = item.tool ?? tool;
  const forms = item.mode === "path" ? item.names.map((name) => [name]) : [item.names];
  const verdict = forms
    .map((names) => {
      const rule = lastMatchingRule(rules, judgedAs, names, item.aliases, item.mode, home);
      return rule ? ruleVerdict(rule) : item.fallback;
    })
    .reduce(stricter);
  if (verdict.decision !== "deny" && session.covers(judgedAs, item, home)) return { decision: "allow" };
  return verdict;
}

function ruleVerdict(rule: Rule): Verdict {
  const name = describeRule(rule);
  if (rule.decision === "deny") return { decision: "deny", rule: name, reason: `${name} (${rule.source ?? "config.json"}).` };
  return rule.decision === "ask" ? { decision: "ask", reason: name } : { decision: "allow" };
}
