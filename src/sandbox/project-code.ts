import { lstatSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_CODE } from "../guard/runs-later.ts";

/**
 * The paths of a writable project that stay read-only because shiro runs what they hold on the person's
 * behalf, later: its `.shiro/` (hooks' settings and scripts, saved commands), its `.mcp.json` and
 * `.claude/`, where they exist — where they really are, should a link lead elsewhere in the project.
 * A hook approved once must keep running the script the person read.
 */
export const projectCode = (root: string): string[] => PROJECT_CODE.flatMap((name) => realOf(join(root, name)));

const realOf = (path: string): string[] => {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
};

/** The same names at the project's top, there or not: where a command may not plant one (the gate refuses making it). */
export const plantable = (root: string): string[] => PROJECT_CODE.map((name) => join(root, name));

/** Which of them are there now (a link counts: it is a name). */
export const present = (paths: readonly string[]): Set<string> => new Set(paths.filter((path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined));

/**
 * What a command planted among them — made in this call, so the model's, not the person's — is removed
 * (a `.mcp.json` would otherwise be offered for approval as if the person had written it); the line for
 * the model's result says so, and the call counts as a denial.
 */
export function removePlanted(root: string, before: ReadonlySet<string>): string[] {
  const planted = [...present(plantable(root))].filter((path) => !before.has(path));
  for (const path of planted) rmSync(path, { recursive: true, force: true });
  return planted.map((path) => `Denied: it made ${path.slice(root.length + 1)}, which shiro would run as the user later (project code); removed.`);
}
