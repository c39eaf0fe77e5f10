import { createGuard } from "./guard.ts";
import { asItStands } from "./resolve-path.ts";

/**
 * Why the guard refuses `tool` writing at the real path `path`, or undefined: what the file tools ask
 * where a write really lands, once its folder is open, since a symlink may have redirected the path
 * the guard judged before the call.
 */
export function createWriteCheck(home?: string): (tool: string, path: string, root: string) => string | undefined {
  const guard = createGuard({ ...(home ? { home } : {}), fs: asItStands });
  return (tool, path, root) => {
    const verdict = guard({ tool, kind: "write", args: { path }, root, subject: { paths: [path] } });
    return verdict?.decision === "deny" ? verdict.reason : undefined;
  };
}
