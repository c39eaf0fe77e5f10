import type { SubjectItem } from "./call-subjects.ts";
import { namesPlace } from "./names-place.ts";
import { describeRule, lastMatchingRule, type Rule } from "./rules.ts";
import type { SessionAllows } from "./session-allows.ts";
import type { Verdict } from "./verdict.ts";

const RANK = { allow: 0, ask: 1, deny: 3 } as const;
// An ask only a person may answer is stricter than one --yolo answers.
const rank = (v: Verdict) => RANK[v.decision] + (v.decision === "ask" && v.person ? 1 : 0);

/** The stricter of two verdicts (deny > a person's ask > ask > allow); on a tie the first one stands. */
export const stricter = (a: Verdict, b: Verdict): Verdict => (rank(b) > rank(a) ? b : a);

/**
 * Judges a subject by the defaults, then the user's rules (the last match wins), then the session's
 * "always" approvals (which lift an ask, never a deny). A path is judged by each of its names and the
 * strictest wins; a command by the last rule matching any of its forms. A file a command writes is
 * judged by the rules of the tool it stands for (`write_file`). A place where code runs later (`place`)
 * opens only to a rule naming it; a command whose program is computed is denied where a deny rule
 * names a program, since nothing shows it is not that one.
 */
export function judgeSubject(tool: string, item: SubjectItem, rules: readonly Rule[], session: SessionAllows, home: string): Verdict {
  const judgedAs = item.tool ?? tool;
  const programDeny = item.computed ? rules.findLast((r) => r.decision === "deny" && r.tool === "bash") : undefined;
  if (programDeny) return computedDenial(item.label, programDeny);
  const forms = item.mode === "path" ? item.names.map((name) => [name]) : [item.names];
  const verdict = forms
    .map((names) => {
      const rule = lastMatchingRule(rules, judgedAs, names, item.aliases, item.mode, home);
      if (!rule) return item.fallback;
      if (item.place === undefined || rule.decision === "deny") return ruleVerdict(rule);
      if (!namesPlace(rule.pattern, item.place, home)) return item.fallback;
      const verdict = ruleVerdict(rule);
      return verdict.decision === "ask" ? { ...verdict, person: true as const } : verdict;
    })
    .reduce(stricter);
  if (verdict.decision !== "deny" && session.covers(judgedAs, item, home)) return { decision: "allow" };
  return verdict;
}

function computedDenial(label: string, rule: Rule): Verdict {
  const name = describeRule(rule);
  return { decision: "deny", rule: name, reason: `${name} (${rule.source ?? "config.json"}): the program of \`${label}\` is only known when it runs, so it cannot be shown not to be one this rule names. Name the program as written.` };
}

function ruleVerdict(rule: Rule): Verdict {
  const name = describeRule(rule);
  if (rule.decision === "deny") return { decision: "deny", rule: name, reason: `${name} (${rule.source ?? "config.json"}).` };
  return rule.decision === "ask" ? { decision: "ask", reason: name } : { decision: "allow" };
}
