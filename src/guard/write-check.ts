import { homedir } from "node:os";
import { callSubjects } from "./call-subjects.ts";
import { createGuard } from "./guard.ts";
import { judgeSubject } from "./permissions.ts";
import type { Reach } from "./reach.ts";
import { asItStands } from "./resolve-path.ts";
import type { Rule } from "./rules.ts";
import type { SecretNames } from "./secret-names.ts";
import { SessionAllows } from "./session-allows.ts";
import type { Check } from "./verdict.ts";

export type WriteCheckOptions = { home?: string; rules?: readonly Rule[]; reach?: Reach; secrets?: SecretNames; extraChecks?: readonly Check[] };

/**
 * Why `tool` writing at the real path `path` is refused whatever was approved, or undefined: what the
 * file tools ask where a write really lands, once its folder is open, since a symlink may have
 * redirected the path judged before the call — to a secret, or to where code runs later (`.git/hooks`,
 * `~/.bashrc`) that no rule naming it opened.
 */
export function createWriteCheck(opts: WriteCheckOptions = {}): (tool: string, path: string, root: string) => string | undefined {
  const home = opts.home ?? homedir();
  const guard = createGuard({ home, fs: asItStands, secrets: opts.secrets, shiroHome: opts.reach?.shiroHome });
  const none = new SessionAllows();
  return (tool, path, root) => {
    const call = { tool, kind: "write" as const, args: { path }, root, subject: { paths: [path] } };
    const verdict = [guard(call), ...(opts.extraChecks ?? []).map((check) => check(call))].find((v) => v?.decision === "deny");
    if (verdict?.decision === "deny") return verdict.reason;
    const env = { root, home, fs: asItStands, secrets: opts.secrets, reach: opts.reach };
    for (const item of callSubjects(call, env)) {
      const judged = item.place === undefined ? undefined : judgeSubject(tool, item, opts.rules ?? [], none, home);
      if (judged?.decision === "deny") return judged.reason;
    }
    return undefined;
  };
}
