import { dirname, sep } from "node:path";
import { isInside } from "../tools/resolve-path.ts";
import type { PathEnv, ResolvedPath } from "./resolve-path.ts";
import type { Verdict } from "./verdict.ts";

/** What the file tools may reach besides the project: the added folders, and the places only a person opens. */
export type Reach = {
  /** `--add-dir`, `sandbox.writable`: read and written as the project is. */
  writable: readonly string[];
  /** `sandbox.readable`: read as the project is. */
  readable: readonly string[];
  /** `$SHIRO_HOME`: sessions, memory and config, which only a person opens to a tool. */
  shiroHome?: string;
};

const OUTSIDE = "outside the project";

/**
 * The default for a file tool's path outside the project. An added folder is the project's equal.
 * Writing anywhere else, and reading the home, `$SHIRO_HOME` or the project's parent and siblings,
 * need a person (`person`: --yolo does not answer it); other reads (`/usr/include`, `/etc`) ask as before.
 */
export function outsideReach(resolved: ResolvedPath, kind: "read" | "write", inside: Verdict, env: PathEnv): Verdict {
  const reach = env.reach;
  const within = (dirs: readonly string[] | undefined) => (dirs ?? []).some((dir) => isInside(resolved.real, realOf(dir, env)));
  if (within(reach?.writable) || (kind === "read" && within(reach?.readable))) return inside;
  if (kind === "write") return { decision: "ask", reason: OUTSIDE, person: true };
  return personal(resolved.real, env).length ? { decision: "ask", reason: OUTSIDE, person: true } : { decision: "ask", reason: OUTSIDE };
}

/** The guarded places a read of `real` reaches into or spans (a search of `/` spans the home). */
function personal(real: string, env: PathEnv): string[] {
  const parent = dirname(realOf(env.root, env));
  const places = [env.home, env.reach?.shiroHome, parent].filter((p): p is string => p !== undefined && p !== sep).map((p) => realOf(p, env));
  return places.filter((place) => isInside(real, place) || isInside(place, real));
}

const realOf = (path: string, env: PathEnv) => env.fs.realpath(path) ?? path;
