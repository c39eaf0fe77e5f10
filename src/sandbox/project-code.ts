import { realpathSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_CODE } from "../guard/runs-later.ts";

/**
 * The paths of a writable project that stay read-only because shiro runs what they hold on the person's
 * behalf, later: its `.shiro/` (hooks' settings and scripts, saved commands) and its
 * `.mcp.json`, where they exist — where they really are, should a link lead elsewhere in the project.
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
