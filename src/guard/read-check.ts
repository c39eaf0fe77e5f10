import { homedir } from "node:os";
import { callSubjects } from "./call-subjects.ts";
import { createGuard } from "./guard.ts";
import { judgeSubject } from "./permissions.ts";
import { asItStands, diskFs, type PathFs } from "./resolve-path.ts";
import type { Reach } from "./reach.ts";
import type { Rule } from "./rules.ts";
import { SessionAllows } from "./session-allows.ts";
import type { Check, GateCall } from "./verdict.ts";

export type ReadCheckOptions = { rules: readonly Rule[]; extraChecks?: readonly Check[]; reach?: Reach; home?: string; fs?: PathFs };

/**
 * Whether `tool` reading `path` directly would be denied — by the guard, a plugin or a rule (a secret
 * file is denied to every tool by default). A tool that reads many files for one call (`grep` over a
 * folder) asks this of each, so a search never returns what a read of that file may not. With `real`,
 * the path is where a read really lands (no link in it) and is judged as it stands.
 */
export function createReadCheck(opts: ReadCheckOptions): (tool: string, path: string, root: string, real?: boolean) => boolean {
  const resolving = judge(opts, opts.fs ?? diskFs);
  const standing = judge(opts, asItStands);
  return (tool, path, root, real = false) => (real ? standing : resolving)(tool, path, root);
}

function judge(opts: ReadCheckOptions, fs: PathFs) {
  const home = opts.home ?? homedir();
  const guard = createGuard({ home, fs });
  const none = new SessionAllows();
  return (tool: string, path: string, root: string): boolean => {
    const call: GateCall = { tool, kind: "read", args: { path }, root, subject: { paths: [path] } };
    if (guard(call)?.decision === "deny") return true;
    if ((opts.extraChecks ?? []).some((check) => check(call)?.decision === "deny")) return true;
    return callSubjects(call, { root, home, fs, ...(opts.reach ? { reach: opts.reach } : {}) }).some((item) => judgeSubject(tool, item, opts.rules, none, home).decision === "deny");
  };
}
