import { statSync, type Stats } from "node:fs";

/**
 * What is at `path` (links followed), or undefined where nothing is — nor can be: a path through a
 * file (`.git/config` where `.git` is a linked worktree's file) is ENOTDIR, which `throwIfNoEntry`
 * does not cover.
 */
export function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
