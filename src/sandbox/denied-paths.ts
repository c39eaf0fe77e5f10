import { existsSync } from "node:fs";
import { relative } from "node:path";
import { globToRegExp } from "../guard/glob-match.ts";
import type { Rule } from "../guard/rules.ts";
import { isInside } from "../files/project-paths.ts";

/**
 * The paths a person's deny rules keep from every tool (`--deny '*:data/customers/**'`, a rule with no
 * tool): the sandbox masks them like secrets, so `cat` cannot read what `read_file` may not. Matched as
 * the rules match a file tool's path: relative to the project inside it, absolute outside.
 */
export function deniedPaths(rules: readonly Rule[], root: string, home: string): { test: (path: string) => boolean; outside: string[] } {
  const denies = rules.filter((r) => r.decision === "deny" && (r.tool === undefined || r.tool === "*"));
  const patterns = denies.map((r) => globToRegExp(r.pattern, "path", home));
  const shown = (path: string) => (isInside(path, root) ? relative(root, path) : path);
  const test = (path: string) => patterns.length > 0 && patterns.some((p) => p.test(shown(path)));
  // Outside the project nothing is scanned: a rule naming a path there as it is (no wildcard) is masked if it exists.
  const outside = denies
    .map((r) => (r.pattern.startsWith("~/") ? `${home}/${r.pattern.slice(2)}` : r.pattern))
    .filter((p) => p.startsWith("/") && !/[*?[\]{}]/.test(p) && !isInside(p, root) && existsSync(p));
  return { test, outside };
}
