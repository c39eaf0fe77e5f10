import { dirname, sep } from "node:path";
import { isInside } from "../files/project-paths.ts";
import type { PathEnv, Reach, ResolvedPath } from "./resolve-path.ts";

export type { Reach };
import type { Verdict } from "./verdict.ts";


const OUTSIDE = "outside the project";
const KEPT = "only a person opens it";

/**
 * The default for a file tool's path. Inside the project, `inside` — but for `$SHIRO_HOME`, or the home
 * when the project holds it (shiro started in `/`), which only a person opens. An added folder is the
 * project's equal. Writing anywhere else, and reading the home, `$SHIRO_HOME` or the project's parent
 * and siblings, need a person (`person`: --yolo does not answer it); other reads (`/usr/include`, `/etc`) ask.
 */
export function reachVerdict(resolved: ResolvedPath, kind: "read" | "write", inside: Verdict, env: PathEnv): Verdict {
  const root = realOf(env.root, env);
  if (resolved.insideRoot) return kept(env).some((place) => place !== root && isInside(place, root) && isInside(resolved.real, place)) ? { decision: "ask", reason: KEPT, person: true } : inside;
  const within = (dirs: readonly string[] | undefined) => (dirs ?? []).some((dir) => isInside(resolved.real, realOf(dir, env)));
  if (within(env.reach?.writable) || (kind === "read" && within(env.reach?.readable))) return inside;
  const spans = (place: string) => isInside(resolved.real, place) || isInside(place, resolved.real);
  if (kind === "write" || [...kept(env), dirname(root)].filter((p) => p !== sep).some(spans)) return { decision: "ask", reason: OUTSIDE, person: true };
  return { decision: "ask", reason: OUTSIDE };
}

/** The places kept for a person wherever they lie: the home and `$SHIRO_HOME` (a search of `/` spans them). */
const kept = (env: PathEnv) => [env.home, env.reach?.shiroHome].filter((p): p is string => p !== undefined && p !== sep).map((p) => realOf(p, env));

const realOf = (path: string, env: PathEnv) => env.fs.realpath(path) ?? path;
