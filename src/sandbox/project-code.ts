import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_CODE } from "../guard/runs-later.ts";

/**
 * The paths of a writable project that stay read-only because shiro runs what they hold as the person,
 * outside the sandbox, later: its `.shiro/` (hooks' settings and scripts, saved commands) and its
 * `.mcp.json`, where they exist. A hook approved once must keep running the script the person read.
 */
export const projectCode = (root: string): string[] => PROJECT_CODE.map((name) => join(root, name)).filter((path) => existsSync(path));
