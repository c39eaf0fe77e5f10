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

  /** Whether every name of a subject is covered by an approval for this tool. */
  covers(tool: string, item: SubjectItem, home: string): boolean {
    const patterns = this.#entries.filter((e) => e.tool === tool).map((e) => globToRegExp(e.pattern, item.mode, home));
    return item.names.every((name) => patterns.some((p) => p.test(name)));
  }

  list(): readonly SessionAllow[] {
    return [...this.#entries];
  }
}

/**
 * The patterns an "always" answer records: `git *` for a command starting with `git` (one per command
 * of a chain), the file's path for file tools.
 */
export function alwaysPatternFor(call: GateCall, env: PathEnv): string[] {
  return alwaysPatterns(callSubjects(call, env));
}

/** The same, from subjects already split (the chain has them when it asks). */
export const alwaysPatterns = (items: readonly SubjectItem[]): string[] => [...new Set(items.flatMap((item) => item.always))];
