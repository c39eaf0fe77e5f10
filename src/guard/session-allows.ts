import { globToRegExp } from "./glob-match.ts";
import { callSubjects, type SubjectItem } from "./call-subjects.ts";
import type { PathEnv } from "./resolve-path.ts";
import type { GateCall } from "./verdict.ts";

export type SessionAllow = { tool: string; pattern: string };

/**
 * Approvals given with "always" during one session: kept in memory only, never written to disk. They
 * lift an "ask", never a deny (the guard and deny rules are checked first).
 */
export class SessionAllows {
  readonly #entries: SessionAllow[] = [];

  add(tool: string, patterns: readonly string[]): void {
    for (const pattern of patterns) {
      if (!this.#entries.some((e) => e.tool === tool && e.pattern === pattern)) this.#entries.push({ tool, pattern });
    }
  }

  /** Whether an approval for this tool covers a subject: every name of a path, any form of a command (as its rules do). */
  covers(tool: string, item: SubjectItem, home: string): boolean {
    const patterns = this.#entries.filter((e) => e.tool === tool).map((e) => globToRegExp(e.pattern, item.mode, home));
    const covered = (name: string) => patterns.some((p) => p.test(name));
    return item.mode === "path" ? item.names.every(covered) : item.names.some(covered);
  }

  list(): readonly SessionAllow[] {
    return [...this.#entries];
  }

  /** These approvals and `more` (a saved command's for its turn), in a copy: `more` never outlives the call it came with. */
  with(more: readonly SessionAllow[]): SessionAllows {
    const both = new SessionAllows();
    for (const { tool, pattern } of [...this.#entries, ...more]) both.add(tool, [pattern]);
    return both;
  }
}

/**
 * What an "always" answer records, for each subject under the tool that judges it: per command of a
 * chain its program and subcommand (`git log *`), or the exact command when it destroys; per file its
 * path, and a file a command writes for `write_file`.
 */
export const alwaysAllows = (tool: string, items: readonly SubjectItem[]): SessionAllow[] =>
  unique(items.flatMap((item) => item.always.map((pattern) => ({ tool: item.tool ?? tool, pattern }))));

/** How they are offered: `git log *` for the call's own tool, `write_file out.txt` for another's. */
export const describeAllows = (tool: string, allows: readonly SessionAllow[]): string[] => allows.map((a) => (a.tool === tool ? a.pattern : `${a.tool} ${a.pattern}`));

/** The approvals offered for a call, as the person sees them. */
export function alwaysPatternFor(call: GateCall, env: PathEnv): string[] {
  return describeAllows(call.tool, alwaysAllows(call.tool, callSubjects(call, env)));
}

function unique(allows: SessionAllow[]): SessionAllow[] {
  const seen = new Set<string>();
  return allows.filter((a) => {
    const key = `${a.tool}\0${a.pattern}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
