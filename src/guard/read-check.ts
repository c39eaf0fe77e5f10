import { homedir } from "node:os";
import { callSubjects } from "./call-subjects.ts";
import { createGuard } from "./guard.ts";
import { judgeSubject, stricter } from "./permissions.ts";
import { asItStands, diskFs, resolvePath, type PathFs } from "./resolve-path.ts";
import type { Reach } from "./reach.ts";
import type { Rule } from "./rules.ts";
import type { SecretNames } from "./secret-names.ts";
import { SessionAllows } from "./session-allows.ts";
import type { Check, GateCall, Verdict } from "./verdict.ts";

export type ReadCheckOptions = { rules: readonly Rule[]; extraChecks?: readonly Check[]; reach?: Reach; home?: string; fs?: PathFs; secrets?: SecretNames };

/**
 * Whether `tool` reading `path` directly would be denied — by the guard, a plugin or a rule (a secret
 * file is denied to every tool by default). A tool that reads many files for one call (`grep` over a
 * folder) asks this of each, so a search never returns what a read of that file may not — nor, from
 * inside the project, what only a person opens (`$SHIRO_HOME` in a project that holds it). With `asked`
 * (the path the call named), `path` is where a read really lands (no link in it), judged as it stands;
 * landing where only a person opens (the home, `$SHIRO_HOME`) is refused unless `asked` itself named
 * such a place, so a link swapped in after the call was judged cannot lead the read there.
 */
export function createReadCheck(opts: ReadCheckOptions): (tool: string, path: string, root: string, asked?: string) => boolean {
  const home = opts.home ?? homedir();
  const fs = opts.fs ?? diskFs;
  const resolving = judge(opts, fs);
  const standing = judge(opts, asItStands);
  return (tool, path, root, asked) => {
    if (asked === undefined) {
      const verdict = resolving(tool, path, root);
      return verdict.decision === "deny" || (needsPerson(verdict) && resolvePath(path, { root, home, fs }).insideRoot);
    }
    const landed = standing(tool, path, root);
    return landed.decision === "deny" || (needsPerson(landed) && !needsPerson(standing(tool, asked, root)));
  };
}

const needsPerson = (verdict: Verdict) => verdict.decision === "ask" && verdict.person === true;

function judge(opts: ReadCheckOptions, fs: PathFs) {
  const home = opts.home ?? homedir();
  const guard = createGuard({ home, fs, secrets: opts.secrets, shiroHome: opts.reach?.shiroHome });
  const none = new SessionAllows();
  return (tool: string, path: string, root: string): Verdict => {
    const call: GateCall = { tool, kind: "read", args: { path }, root, subject: { paths: [path] } };
    const denial = [guard(call), ...(opts.extraChecks ?? []).map((check) => check(call))].find((v) => v?.decision === "deny");
    if (denial) return denial;
    const env = { root, home, fs, secrets: opts.secrets, reach: opts.reach };
    return callSubjects(call, env)
      .map((item) => judgeSubject(tool, item, opts.rules, none, home))
      .reduce(stricter, { decision: "allow" } as Verdict);
  };
}
