import { isAbsolute, join } from "node:path";

/**
 * Whether a path pattern names something in `place` (a shown path: relative to the project, or
 * absolute): its fixed leading folders lie there. `.git/hooks/*` and `~/.bashrc` name theirs;
 * `**`, `~/**` or `**\/.bashrc` name no place, so they never open one.
 */
export function namesPlace(pattern: string, place: string, home: string): boolean {
  const expanded = pattern.startsWith("~/") ? join(home, pattern.slice(2)) : pattern;
  const fixed: string[] = [];
  for (const part of expanded.split("/")) {
    if (/[*?[\]{}\\]/.test(part)) break;
    fixed.push(part);
  }
  const lead = fixed.join("/");
  if (lead === "" || lead === "/" || isAbsolute(lead) !== isAbsolute(place)) return false;
  return lead === place || lead.startsWith(`${place}/`);
}
