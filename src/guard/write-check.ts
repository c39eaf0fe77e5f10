import { createGuard } from "./guard.ts";
import type { PathFs } from "./resolve-path.ts";

// The path is where a write really lands, already free of links: resolving it again would follow
// whatever link is there now, the very race the file tools close. So it is judged as it stands.
const asWritten: PathFs = { realpath: (path) => path, readlink: () => undefined, isDirectory: () => false };

/**
 * Why the guard refuses `tool` writing at the real path `path`, or undefined: what the file tools ask
 * where a write really lands, once its folder is open, since a symlink may have redirected the path
 * the guard judged before the call.
 */
export function createWriteCheck(home?: string): (tool: string, path: string, root: string) => string | undefined {
  const guard = createGuard({ ...(home ? { home } : {}), fs: asWritten });
  return (tool, path, root) => {
    const verdict = guard({ tool, kind: "write", args: { path }, root, subject: { paths: [path] } });
    return verdict?.decision === "deny" ? verdict.reason : undefined;
  };
}
